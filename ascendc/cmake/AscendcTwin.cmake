# ascendc/cmake/AscendcTwin.cmake: builds an AscendC op_kernel file, unchanged, for the twin
# and registers its instantiations by (kernel name, tiling key) (docs/ascendc_twin.md).
#
#   ascendc_twin_add_kernel(<target> SOURCES <kernel.cpp>... KERNEL <name>
#                           [TILING_KEY_HEADER <op>_tiling_key.h] [INCLUDES <dir>...] [DEFINES <d>...])
#
# <target> is an OBJECT library (link it, or take $<TARGET_OBJECTS:...>): a generated unit
# that includes the sources and registers, from static initializers,
#   - with TILING_KEY_HEADER (a template kernel): each combination ASCENDC_TPL_SEL lists, as
#     <name><args...> under the key the host's ASCENDC_TPL_SEL_PARAM computes for it (a
#     small generator, asc_twin_tpl_gen, built with the header, writes the list with
#     template_argument.h's own encoder); plus extern "C" <name>(GM_ADDR...), which runs
#     the instantiation ICPU_SET_TILING_KEY selects (what ops-nn's kernel UTs call);
#   - without (a plain kernel): <name> under key 0, and under every key its source tests
#     with TILING_KEY_IS(<n>) (TILING_KEY_IS then compares against the key launched).
# The number of GM_ADDR arguments each registration carries is the instantiation's own.
# DEFINES are the kernel's compile definitions (e.g. DTYPE_X=float for a kernel written
# against DTYPE_* macros). SOURCE_NAME: the kernel's name in the source when DEFINES rename it
# to KERNEL (<src>=<name>: one instantiation per dtype combination). Kernels compile with ASCENDC_TPL_KERNEL, ASCENDC_CPU_DEBUG and
# __CCE_KT_TEST__ (the macro CANN's CPU twin builds define).
set(ASCENDC_TWIN_DIR ${CMAKE_CURRENT_LIST_DIR}/.. CACHE INTERNAL "the twin's ascendc/ folder")

function(ascendc_twin_add_kernel target)
  cmake_parse_arguments(A "" "KERNEL;TILING_KEY_HEADER;SOURCE_NAME" "SOURCES;INCLUDES;DEFINES" ${ARGN})
  set(src_name ${A_KERNEL})
  if(A_SOURCE_NAME)
    set(src_name ${A_SOURCE_NAME})
  endif()
  if(NOT A_KERNEL OR NOT A_SOURCES)
    message(FATAL_ERROR "ascendc_twin_add_kernel(${target}): KERNEL and SOURCES are required")
  endif()
  set(gen ${CMAKE_CURRENT_BINARY_DIR}/${target}_twin)
  file(MAKE_DIRECTORY ${gen})
  set(sources)
  set(dirs)
  foreach(s IN LISTS A_SOURCES)
    get_filename_component(abs ${s} ABSOLUTE)
    get_filename_component(dir ${abs} DIRECTORY)
    list(APPEND sources ${abs})
    list(APPEND dirs ${dir})
  endforeach()
  list(REMOVE_DUPLICATES dirs)

  # a tiling-key header that declares no template parameters ("no tiling key") is none
  set(header)
  if(A_TILING_KEY_HEADER)
    get_filename_component(header ${A_TILING_KEY_HEADER} ABSOLUTE)
    file(READ ${header} text)
    if(NOT text MATCHES "ASCENDC_TPL_ARGS_DECL")
      set(header)
    endif()
  endif()
  if(header)
    # from the kernel's signature: its GM_ADDR parameters (for the extern "C" dispatcher)
    # and its template parameters' kinds, T (typename) or V (a value)
    set(nargs 0)
    set(kinds -)
    foreach(abs IN LISTS sources)
      file(READ ${abs} text)
      string(REGEX MATCH "void[ \t\r\n]+${src_name}[ \t\r\n]*\\(([^)]*)\\)" sig "${text}")
      if(sig)
        string(REGEX MATCHALL "GM_ADDR" gm "${CMAKE_MATCH_1}")
        list(LENGTH gm nargs)
      endif()
      string(REGEX MATCH "template[ \t\r\n]*<([^>]*)>[ \t\r\n]*(__global__[ \t\r\n]+)?(__aicore__[ \t\r\n]+)?void[ \t\r\n]+${src_name}[ \t\r\n]*\\(" tpl "${text}")
      if(tpl)
        string(REPLACE "," ";" tparams "${CMAKE_MATCH_1}")
        set(kinds "")
        foreach(p IN LISTS tparams)
          if(p MATCHES "^[ \t\r\n]*(typename|class)[ \t\r\n]")
            string(APPEND kinds T)
          else()
            string(APPEND kinds V)
          endif()
        endforeach()
      endif()
    endforeach()
    add_executable(${target}_tplgen ${ASCENDC_TWIN_DIR}/cmake/asc_twin_tpl_gen.cpp)
    target_include_directories(${target}_tplgen PRIVATE ${ASCENDC_TWIN_DIR}/include ${dirs} ${A_INCLUDES})
    target_compile_definitions(${target}_tplgen PRIVATE "ASC_TWIN_TPL_HEADER=\"${header}\"")
    # ops-nn's headers are not held to this project's warnings
    target_compile_options(${target}_tplgen PRIVATE -Wno-error)
    set_target_properties(${target}_tplgen PROPERTIES CXX_STANDARD 17 CXX_STANDARD_REQUIRED ON CXX_EXTENSIONS OFF)
    add_custom_command(OUTPUT ${gen}/register.cpp ${gen}/dispatch.cpp
      COMMAND ${target}_tplgen ${A_KERNEL} ${nargs} ${kinds} ${gen}/register.cpp ${gen}/dispatch.cpp ${sources}
      DEPENDS ${target}_tplgen ${header}
      COMMENT "Registering ${A_KERNEL}'s ASCENDC_TPL_SEL instantiations" VERBATIM)
    set(units ${gen}/register.cpp ${gen}/dispatch.cpp)
  else()
    set(keys 0)
    foreach(abs IN LISTS sources)
      file(READ ${abs} text)
      string(REGEX MATCHALL "TILING_KEY_IS[ \t]*\\([ \t]*[0-9]+" found "${text}")
      foreach(f IN LISTS found)
        string(REGEX MATCH "[0-9]+$" k "${f}")
        list(APPEND keys ${k})
      endforeach()
    endforeach()
    list(REMOVE_DUPLICATES keys)
    set(content "// Generated by ascendc_twin_add_kernel: ${A_KERNEL} under each key it tests.\n")
    foreach(abs IN LISTS sources)
      string(APPEND content "#include \"${abs}\"\n")
    endforeach()
    string(APPEND content "#include \"asc_face/entry.h\"\n\n")
    foreach(k IN LISTS keys)
      string(APPEND content "ASC_TWIN_REGISTER_KERNEL(\"${A_KERNEL}\", ${k}ULL, ${A_KERNEL})\n")
    endforeach()
    file(GENERATE OUTPUT ${gen}/register.cpp CONTENT "${content}")
    set(units ${gen}/register.cpp)
  endif()

  add_library(${target} OBJECT ${units})
  target_compile_definitions(${target} PRIVATE ASCENDC_TPL_KERNEL ASCENDC_CPU_DEBUG __CCE_KT_TEST__ ${A_DEFINES})
  target_include_directories(${target} PRIVATE ${dirs} ${A_INCLUDES})
  target_link_libraries(${target} PUBLIC ascendc_twin)
  set_target_properties(${target} PROPERTIES CXX_STANDARD 17 CXX_STANDARD_REQUIRED ON CXX_EXTENSIONS OFF
                        POSITION_INDEPENDENT_CODE ON)
  # A kernel's signature carries workspace and tiling whether it reads them or not; kernels
  # from outside this tree (an ops-nn checkout) are not held to its warnings at all.
  target_compile_options(${target} PRIVATE -Wno-unused-parameter)
  foreach(abs IN LISTS sources)
    string(FIND "${abs}" "${PROJECT_SOURCE_DIR}/" inside)
    if(NOT inside EQUAL 0)
      target_compile_options(${target} PRIVATE -Wno-error)
    endif()
  endforeach()
endfunction()
