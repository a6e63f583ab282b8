/* exe_graph/runtime/tiling_parse_context.h: gert::TilingParseContext. Here it carries only
   the compile info a TilingParse fills (no compiled-json to parse) and the platform. */
#ifndef MG_GERT_TILING_PARSE_CONTEXT_H_
#define MG_GERT_TILING_PARSE_CONTEXT_H_

#include "exe_graph/runtime/tiling_context.h"

namespace gert {
class TilingParseContext {
public:
    TilingParseContext(void *compile_info, fe::PlatFormInfos *platform, const char *name)
        : compile_info_(compile_info), platform_(platform), name_(name) {}
    template <typename T> T *GetCompiledInfo() { return static_cast<T *>(compile_info_); }
    fe::PlatFormInfos *GetPlatformInfo() { return platform_; }
    const char *GetNodeName() const { return name_; }
    const char *GetNodeType() const { return name_; }

private:
    void *compile_info_;
    fe::PlatFormInfos *platform_;
    const char *name_;
};
} // namespace gert

#endif
