# opbuild/ops_nn/OpsNn.cmake: builds ops-nn operator directories (build.sh --ops-nn) into
# an operator package: MISHGRAD_OPS_NN_OPS is a list of <name>=<directory>. Per operator:
#   opsnn_op_<name>   its op_host and op_host/op_api sources (tiling, def, infershape,
#                     aclnn entry, l0 op) as objects, and its op_kernel through the twin
#                     (ascendc_twin_add_kernel) when the twin is in the tree
#   opsnn_ut_<name>   its op_api UTs (tests/ut/op_api/*.cpp, tests/ut/op_host/test_aclnn_*.cpp)
#                     on the project's harness (opbuild/ut) and gtest
# and opsnn_cust_opapi, libcust_opapi.so of every operator, installed (component opsnn)
# where CANN's layout keeps a vendor's operators. build.sh builds each operator's targets
# alone, so that one which does not build leaves the others building.
set(_opsnn_include_dirs
  ${PROJECT_SOURCE_DIR}/optiling/include ${PROJECT_SOURCE_DIR}/opdev/include
  ${PROJECT_SOURCE_DIR}/include ${PROJECT_SOURCE_DIR}/include/aclnnop ${PROJECT_SOURCE_DIR}/ascendc/include)
set(_opsnn_objects)
set(_opsnn_kernel_libs)
set(_opsnn_headers)
foreach(_entry IN LISTS MISHGRAD_OPS_NN_OPS)
  string(REGEX REPLACE "=.*" "" _name "${_entry}")
  string(REGEX REPLACE "^[^=]*=" "" _dir "${_entry}")
  # op_host (its tilings in op_host/arch35 when op_host has none of its own), and the op_api
  # in op_host/op_api or beside op_host (ops-nn keeps it in either)
  file(GLOB _host ${_dir}/op_host/*.cpp)
  file(GLOB _host_tilings ${_dir}/op_host/*tiling*.cpp)
  if(NOT _host_tilings)
    file(GLOB _arch35 ${_dir}/op_host/arch35/*.cpp)
    list(APPEND _host ${_arch35})
  endif()
  file(GLOB _api ${_dir}/op_host/op_api/*.cpp ${_dir}/op_api/*.cpp)
  get_filename_component(_category ${_dir} DIRECTORY)
  set(_gen_include)
  set(_gen_ut)
  if(NOT _api)
    # no written op_api: the aclnn entries, their headers and values UTs generated from the
    # OpDef, as CANN's build does (opbuild/src/aclnn_gen.cpp)
    set(_gen ${PROJECT_BINARY_DIR}/opsnn_gen/${_name})
    file(MAKE_DIRECTORY ${_gen}/include)
    file(GLOB _defs ${_dir}/op_host/*_def.cpp)
    add_executable(opsnn_gen_${_name} ${_defs} ${PROJECT_SOURCE_DIR}/opbuild/src/aclnn_gen.cpp)
    target_include_directories(opsnn_gen_${_name} PRIVATE ${_opsnn_include_dirs} ${_dir} ${_dir}/op_host)
    if(MISHGRAD_OPS_NN_COMMON)
      target_compile_options(opsnn_gen_${_name} PRIVATE -idirafter ${MISHGRAD_OPS_NN_COMMON})
    endif()
    target_link_libraries(opsnn_gen_${_name} PRIVATE optiling)
    target_compile_options(opsnn_gen_${_name} PRIVATE -Wno-error -w)
    set_target_properties(opsnn_gen_${_name} PROPERTIES CXX_STANDARD 17)
    add_custom_command(OUTPUT ${_gen}/generated_aclnn.cpp ${_gen}/generated_ut.cpp
                       COMMAND opsnn_gen_${_name} ${_gen} DEPENDS opsnn_gen_${_name}
                       COMMENT "Generating the aclnn entries of ${_name} from its OpDef" VERBATIM)
    list(APPEND _api ${_gen}/generated_aclnn.cpp)
    set(_gen_include ${_gen}/include)
    set(_gen_ut ${_gen}/generated_ut.cpp)
    install(DIRECTORY ${_gen}/include/ DESTINATION ${MISHGRAD_CANN_OP_API}/include/aclnnop COMPONENT opsnn
            EXCLUDE_FROM_ALL FILES_MATCHING PATTERN "*.h")
    install(DIRECTORY ${_gen}/include/ DESTINATION ${MISHGRAD_CANN_OP_API}/include COMPONENT opsnn
            EXCLUDE_FROM_ALL FILES_MATCHING PATTERN "*.h")
  endif()
  add_library(opsnn_obj_${_name} OBJECT ${_host} ${_api})
  # the operator's folders, and its category's and the checkout's (ops-nn includes
  # "<op>/op_kernel/..." from the category folder)
  target_include_directories(opsnn_obj_${_name} PRIVATE ${_opsnn_include_dirs} ${_dir} ${_dir}/op_host
                             ${_dir}/op_host/op_api ${_dir}/op_api ${_dir}/op_kernel ${_category} ${_gen_include}
                             ${PROJECT_SOURCE_DIR}/opbuild/include)
  # what ops-nn ships in its own common/inc, for the headers this project does not provide
  # (ours come first: -idirafter)
  if(MISHGRAD_OPS_NN_COMMON)
    target_compile_options(opsnn_obj_${_name} PRIVATE -idirafter ${MISHGRAD_OPS_NN_COMMON})
  endif()
  target_link_libraries(opsnn_obj_${_name} PRIVATE opdev)
  # ops-nn's sources are not held to this project's warnings
  target_compile_options(opsnn_obj_${_name} PRIVATE -Wno-error -w)
  set_target_properties(opsnn_obj_${_name} PROPERTIES CXX_STANDARD 17 POSITION_INDEPENDENT_CODE ON)
  list(APPEND _opsnn_objects $<TARGET_OBJECTS:opsnn_obj_${_name}>)
  add_custom_target(opsnn_op_${_name} DEPENDS opsnn_obj_${_name})
  # the kernel: op_kernel/<name>.cpp, or the file the OpDef names (ExtendCfgInfo("opFile.value", F):
  # op_kernel/F.cpp, kernel F), as CANN's build picks it
  set(_kernel ${_name})
  if(NOT EXISTS ${_dir}/op_kernel/${_name}.cpp AND EXISTS ${_dir}/op_kernel/${_name}_apt.cpp)
    set(_kernel ${_name}_apt)
  endif()
  if(NOT EXISTS ${_dir}/op_kernel/${_name}.cpp)
    file(GLOB _defs ${_dir}/op_host/*_def.cpp)
    foreach(_def IN LISTS _defs)
      file(READ ${_def} _text)
      if(_text MATCHES "opFile\\.value\"[ \t\r\n]*,[ \t\r\n]*\"([A-Za-z0-9_]+)\"")
        set(_kernel ${CMAKE_MATCH_1})
      endif()
    endforeach()
  endif()
  if(COMMAND ascendc_twin_add_kernel AND EXISTS ${_dir}/op_kernel/${_kernel}.cpp)
    set(_key_args)
    # the tiling-key header: <kernel>_tiling_key.h, <name>_tiling_key.h (an _apt kernel's),
    # in op_kernel or op_kernel/arch35
    foreach(_key ${_dir}/op_kernel/${_kernel}_tiling_key.h ${_dir}/op_kernel/${_name}_tiling_key.h
                 ${_dir}/op_kernel/arch35/${_name}_tiling_key.h)
      if(NOT _key_args AND EXISTS ${_key})
        set(_key_args TILING_KEY_HEADER ${_key})
      endif()
    endforeach()
    # an <op>_apt.cpp file (ops-nn's arch35 kernels) defines the kernel <op>
    string(REGEX REPLACE "_apt$" "" _function ${_kernel})
    ascendc_twin_add_kernel(opsnn_kernel_${_name} SOURCES ${_dir}/op_kernel/${_kernel}.cpp KERNEL ${_function}
                            ${_key_args})
    add_dependencies(opsnn_op_${_name} opsnn_kernel_${_name})
    list(APPEND _opsnn_kernel_libs opsnn_kernel_${_name})
  endif()
  file(GLOB _api_headers ${_dir}/op_host/op_api/aclnn_*.h ${_dir}/op_api/aclnn_*.h)
  list(APPEND _opsnn_headers ${_api_headers})
  # the UTs (and the generated values UTs of a generated op_api)
  file(GLOB _uts ${_dir}/tests/ut/op_api/*.cpp ${_dir}/tests/ut/op_host/test_aclnn_*.cpp)
  list(APPEND _uts ${_gen_ut})
  if(_uts AND TARGET op_api_ut)
    add_executable(opsnn_ut_${_name} ${_uts})
    target_include_directories(opsnn_ut_${_name} PRIVATE ${_opsnn_include_dirs} ${_dir} ${_dir}/op_host/op_api
                               ${_dir}/op_api ${_gen_include})
    target_link_libraries(opsnn_ut_${_name} PRIVATE opsnn_cust_opapi op_api_ut opdev)
    target_compile_options(opsnn_ut_${_name} PRIVATE -Wno-error -w)
    if(MISHGRAD_OPS_NN_COMMON)
      target_compile_options(opsnn_ut_${_name} PRIVATE -idirafter ${MISHGRAD_OPS_NN_COMMON})
    endif()
    set_target_properties(opsnn_ut_${_name} PROPERTIES CXX_STANDARD 17)
  endif()
  # the kernel UTs (tests/ut/op_kernel: tikicpulib.h's ICPU_RUN_KF on the kernel source they
  # include) run on the twin; ops-nn's data_utils.h comes from the checkout
  file(GLOB _kuts ${_dir}/tests/ut/op_kernel/*.cpp)
  if(_kuts AND TARGET ascendc_twin AND TARGET op_api_ut)
    add_executable(opsnn_kut_${_name} ${_kuts})
    target_include_directories(opsnn_kut_${_name} PRIVATE ${_opsnn_include_dirs} ${_dir}/op_kernel
                               ${_dir}/tests/ut/op_kernel)
    if(MISHGRAD_OPS_NN_COMMON)
      get_filename_component(_checkout ${MISHGRAD_OPS_NN_COMMON}/../.. ABSOLUTE)
      target_compile_options(opsnn_kut_${_name} PRIVATE -idirafter ${_checkout}/tests/ut/op_kernel)
    endif()
    # gtest comes through the UT harness library (its imported targets are local to opbuild/ut)
    target_link_libraries(opsnn_kut_${_name} PRIVATE ascendc_twin op_api_ut)
    # CANN builds kernel UTs with __CCE_KT_TEST__ (ops-nn's UTs include tikicpulib.h under it);
    # the project's own kernel UTs compare with the project's reference library
    target_compile_definitions(opsnn_kut_${_name} PRIVATE __CCE_KT_TEST__=1)
    if(TARGET mishgrad_reference)
      target_link_libraries(opsnn_kut_${_name} PRIVATE mishgrad_reference)
    endif()
    target_compile_options(opsnn_kut_${_name} PRIVATE -Wno-error -w)
    set_target_properties(opsnn_kut_${_name} PROPERTIES CXX_STANDARD 17)
  endif()
endforeach()

add_library(opsnn_cust_opapi SHARED ${_opsnn_objects} $<TARGET_OBJECTS:opbuild_launcher>)
target_link_libraries(opsnn_cust_opapi PUBLIC opdev optiling nnopbase ascendcl)
foreach(_k IN LISTS _opsnn_kernel_libs)
  get_target_property(_type ${_k} TYPE)
  if(_type STREQUAL "OBJECT_LIBRARY")
    target_sources(opsnn_cust_opapi PRIVATE $<TARGET_OBJECTS:${_k}>)
    target_link_libraries(opsnn_cust_opapi PRIVATE ${_k})
  else()
    # kernels register themselves in static constructors: keep every object
    target_link_libraries(opsnn_cust_opapi PRIVATE "-Wl,--whole-archive" ${_k} "-Wl,--no-whole-archive")
  endif()
endforeach()
if(TARGET ascendc_twin)
  target_link_libraries(opsnn_cust_opapi PUBLIC ascendc_twin)
endif()
set_target_properties(opsnn_cust_opapi PROPERTIES OUTPUT_NAME cust_opapi
                      LIBRARY_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/opsnn/lib INSTALL_RPATH "$ORIGIN/../../../../../lib64")
install(TARGETS opsnn_cust_opapi LIBRARY DESTINATION ${MISHGRAD_CANN_OP_API}/lib COMPONENT opsnn EXCLUDE_FROM_ALL)
# the operators' aclnn headers include "aclnn_util.h" (ACLNN_API), next to them as in CANN
list(APPEND _opsnn_headers ${PROJECT_SOURCE_DIR}/include/aclnnop/aclnn_util.h)
install(FILES ${_opsnn_headers} DESTINATION ${MISHGRAD_CANN_OP_API}/include/aclnnop COMPONENT opsnn EXCLUDE_FROM_ALL)
install(FILES ${_opsnn_headers} DESTINATION ${MISHGRAD_CANN_OP_API}/include COMPONENT opsnn EXCLUDE_FROM_ALL)
