// LLD's ELF linker in-process: `postc_codegen::link` links shared libraries,
// combines codegen units (`-r`) and links AMDGPU code objects through it, so
// compiling to a loadable library needs no linker or C compiler on the
// machine. LLD's entry point is C++ only.
#include "lld/Common/Driver.h"
#include "llvm/Support/CrashRecoveryContext.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>

LLD_HAS_DRIVER(elf)

#ifdef POSTC_ABSENT_TARGETS
// Feature `host-target-only`: the other targets' initialisers, which
// register nothing (build.rs writes them). They are in this file so that
// they are linked whenever LLD is, before LLVM's own definitions are looked
// for.
#include "absent_targets.inc"
#endif

namespace {
// LLD keeps its state in globals: one link at a time.
std::mutex link_lock;
// Set once LLD reports that it cannot run again in this process (it
// unwound from a fatal error or a crash, past its own clean-up).
bool unusable = false;

char *copy(const std::string &s) {
    char *p = static_cast<char *>(std::malloc(s.size() + 1));
    if (p) {
        std::memcpy(p, s.data(), s.size() + 1);
    }
    return p;
}
} // namespace

// Runs `ld.lld` with `argv` (`argv[0]` is "ld.lld"). Returns 0 when the link
// succeeded, 1 when it failed, 2 when it failed and LLD cannot run again in
// this process, 3 when LLD was not run because an earlier link left it so
// (a link that succeeds can leave it so too, if LLD's clean-up fails).
// `*message` is then LLD's diagnostics (malloc'd; NULL if none), NULL on
// success.
extern "C" int postc_lld_link(int argc, const char *const *argv, char **message) {
    std::lock_guard<std::mutex> guard(link_lock);
    *message = nullptr;
    if (unusable) {
        return 3;
    }
    std::string out, err;
    llvm::raw_string_ostream out_stream(out), err_stream(err);
    // With crash recovery on, a fatal LLD error returns here instead of
    // ending the process; it is off again outside the link, so the host
    // process's own signal handlers are left as they were.
    llvm::CrashRecoveryContext::Enable();
    lld::Result r = lld::lldMain(llvm::ArrayRef<const char *>(argv, static_cast<size_t>(argc)), out_stream,
                                 err_stream, {{lld::Gnu, &lld::elf::link}});
    llvm::CrashRecoveryContext::Disable();
    out_stream.flush();
    err_stream.flush();
    if (!r.canRunAgain) {
        unusable = true;
    }
    if (r.retCode == 0) {
        return 0;
    }
    *message = copy(err.empty() ? out : err);
    return r.canRunAgain ? 1 : 2;
}
