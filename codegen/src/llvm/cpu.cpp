// Whether LLVM knows a CPU name for a target: LLVM's C API has no such
// query, and a target machine made with an unknown CPU ignores it with a
// warning, or (x86-64) aborts the process when it first compiles.
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/TargetParser/Triple.h"

#include <memory>
#include <string>

// 1: `cpu` names a CPU of `triple`'s target; 0: it does not; -1: the
// target is unknown (the targets must be initialised first).
extern "C" int postc_cpu_valid(const char *triple, const char *cpu) {
    llvm::Triple tt(triple);
    std::string error;
    const llvm::Target *target = llvm::TargetRegistry::lookupTarget(tt, error);
    if (!target) {
        return -1;
    }
    std::unique_ptr<llvm::MCSubtargetInfo> sti(target->createMCSubtargetInfo(tt, "", ""));
    if (!sti) {
        return -1;
    }
    return sti->isCPUStringValid(cpu) ? 1 : 0;
}
