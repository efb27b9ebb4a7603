"""A hatchling build hook that compiles POST modules into extension modules
ahead of time (`postc compile --emit pyext`, docs/aot.md), so that the
wheel needs NumPy alone where it is installed.

    [build-system]
    requires = ["hatchling", "postc"]
    build-backend = "hatchling.build"

    [tool.hatch.build.targets.wheel.hooks.postc]
    # The importable name of each extension module and its POST source.
    modules = { "pkg.kernels" = "src/pkg/kernels.py" }
    opt = 2                # optional: the -O level (default 2)
    cpu = "x86-64-v3"      # optional: the CPU the code is for (default: the building machine's)
    abi3 = true            # optional: for CPython's stable ABI (default false)

Each module is compiled for the interpreter that runs the build and put in
the wheel as `pkg/kernels<EXT_SUFFIX>`; the wheel is tagged for that
interpreter and platform. With `abi3`, each is `pkg/kernels.abi3.so`, for
CPython 3.11 and every later version, and the wheel is tagged
`cp311-abi3-PLATFORM` (docs/aot.md says what the stable ABI costs)."""
import importlib.machinery
import os
import subprocess
import sys
import sysconfig
import tempfile

import packaging.tags
from hatchling.builders.hooks.plugin.interface import BuildHookInterface
from hatchling.plugin import hookimpl


class PostcBuildHook(BuildHookInterface):
    PLUGIN_NAME = "postc"

    def initialize(self, version, build_data):
        if self.target_name != "wheel":
            return
        modules = self.config.get("modules", {})
        if not isinstance(modules, dict) or not modules:
            raise ValueError("[tool.hatch.build.targets.wheel.hooks.postc]: `modules` maps each extension "
                             "module's importable name to its POST source, and names none")
        out = tempfile.mkdtemp(prefix="postc-pyext-")
        abi3 = bool(self.config.get("abi3", False))
        if abi3:
            suffix = next(s for s in importlib.machinery.EXTENSION_SUFFIXES if ".abi3" in s)
        else:
            suffix = sysconfig.get_config_var("EXT_SUFFIX")
        for name, source in sorted(modules.items()):
            *package, leaf = name.split(".")
            built = os.path.join(out, leaf + suffix)
            command = [sys.executable, "-m", "postc", "compile", "--emit", "pyext", f"-O{self.config.get('opt', 2)}",
                       os.path.join(self.root, source), "-o", built, "--python", sys.executable]
            if "cpu" in self.config:
                command += ["--cpu", str(self.config["cpu"])]
            if abi3:
                command.append("--abi3")
            self.app.display_info(f"postc: compiling {source} into {name}")
            subprocess.run(command, check=True)
            where = "/".join(package + [leaf])
            build_data["force_include"][built] = where + suffix
            build_data["force_include"][os.path.join(out, leaf + ".pyi")] = where + ".pyi"
        build_data["pure_python"] = False
        if abi3:
            # The stable ABI of postc-pyabi's feature `abi3` (3.11), on this
            # platform.
            build_data["tag"] = f"cp311-abi3-{next(packaging.tags.sys_tags()).platform}"
        else:
            build_data["infer_tag"] = True


@hookimpl
def hatch_register_build_hook():
    return PostcBuildHook
