// Whether LLVM knows a CPU name for a target, and the names it knows:
// LLVM's C API has no such query, and a target machine made with an
// unknown CPU ignores it with a warning, or (x86-64) aborts the process when
// it first compiles.
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

// The CPU names LLVM knows for `triple`'s target, separated by spaces,
// written into `out` (at most `cap` bytes, NUL-terminated when there is
// room). Returns the length of the whole list (without the NUL), or -1
// when the target is unknown.
extern "C" long postc_cpu_names(const char *triple, char *out, unsigned long cap) {
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
    std::string list;
    for (const llvm::SubtargetSubTypeKV &p : sti->getAllProcessorDescriptions()) {
        if (!list.empty()) {
            list += ' ';
        }
        list += p.Key;
    }
    if (cap > 0) {
        unsigned long n = list.size() < cap - 1 ? list.size() : cap - 1;
        list.copy(out, n);
        out[n] = '\0';
    }
    return (long)list.size();
}
