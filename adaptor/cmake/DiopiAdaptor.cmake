# diopi_adapted_library(<target> VENDOR <name> KERNELS <static lib target> CONFIG <convert_config.yaml>)
#
# Creates the shared library <target> that exports one extern "C" diopiXxx
# per kernel impl::<vendor>::diopiXxx found in the KERNELS archive, wrapped in
# the dtype/layout conversions CONFIG asks for. The wrappers are generated at
# build time into ${CMAKE_BINARY_DIR}/adaptor/<vendor>; the generator reruns
# only when the archive, the config, the templates, the codegen scripts or the
# headers change, and rewrites only files whose content changed.
set(DIOPI_ADAPTOR_DIR ${CMAKE_CURRENT_LIST_DIR}/..)
get_filename_component(DIOPI_ADAPTOR_DIR ${DIOPI_ADAPTOR_DIR} ABSOLUTE)

function(diopi_adapted_library target)
  cmake_parse_arguments(ARG "" "VENDOR;KERNELS;CONFIG" "" ${ARGN})
  foreach(_req VENDOR KERNELS CONFIG)
    if(NOT ARG_${_req})
      message(FATAL_ERROR "diopi_adapted_library(${target}): ${_req} is required")
    endif()
  endforeach()
  find_package(Python3 COMPONENTS Interpreter REQUIRED)
  set(_nm ${CMAKE_NM})
  if(NOT _nm)
    set(_nm nm)
  endif()

  set(_gen ${DIOPI_ADAPTOR_DIR}/codegen/generate.py)
  set(_out ${CMAKE_BINARY_DIR}/adaptor/${ARG_VENDOR})
  set(_stamp ${_out}/codegen.stamp)
  # The header model the generator reads (this checkout's, whatever the interpreter has installed).
  set(_header_py ${PROJECT_SOURCE_DIR}/proto/python)
  file(GLOB _header_model CONFIGURE_DEPENDS ${_header_py}/diopi_header/*.py)
  set(_py ${CMAKE_COMMAND} -E env PYTHONPATH=${_header_py} DIOPI_INCLUDE_DIR=${PROJECT_SOURCE_DIR}/proto/include
          ${Python3_EXECUTABLE})
  set(_headers ${PROJECT_SOURCE_DIR}/proto/include/diopi/diopirt.h
               ${PROJECT_SOURCE_DIR}/proto/include/diopi/functions.h
               ${PROJECT_SOURCE_DIR}/proto/include/diopi/functions_ext.h
               ${PROJECT_SOURCE_DIR}/proto/include/diopi/collective.h)
  file(GLOB _codegen CONFIGURE_DEPENDS ${DIOPI_ADAPTOR_DIR}/codegen/*.py)
  file(GLOB _templates CONFIGURE_DEPENDS ${DIOPI_ADAPTOR_DIR}/templates/*.j2)

  # The file list depends on the headers' families only; ask the generator.
  execute_process(
    COMMAND ${_py} ${_gen} --list-outputs --out-dir ${_out}
    OUTPUT_VARIABLE _generated RESULT_VARIABLE _rc ERROR_VARIABLE _err)
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "diopi adaptor: cannot list the generated files:\n${_err}")
  endif()
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${_headers} ${_codegen} ${_header_model})

  # The wrappers are byproducts (restat under Ninja): a rerun that produces
  # the same text does not recompile them.
  add_custom_command(
    OUTPUT ${_stamp}
    BYPRODUCTS ${_generated}
    COMMAND ${_py} ${_gen} --vendor ${ARG_VENDOR} --config ${ARG_CONFIG}
            --archive $<TARGET_FILE:${ARG_KERNELS}> --nm ${_nm} --out-dir ${_out} --stamp ${_stamp}
    DEPENDS ${ARG_KERNELS} ${ARG_CONFIG} ${_codegen} ${_templates} ${_headers} ${_header_model}
    COMMENT "diopi adaptor: generating wrappers for impl/${ARG_VENDOR}"
    VERBATIM)
  add_custom_target(${target}_codegen DEPENDS ${_stamp})

  add_library(${target} SHARED ${_generated} ${DIOPI_ADAPTOR_DIR}/csrc/adaptor_runtime.cpp)
  add_dependencies(${target} ${target}_codegen)
  target_include_directories(${target} PRIVATE ${DIOPI_ADAPTOR_DIR}/csrc)
  diopi_use_header_tables(${target})
  target_link_libraries(${target} PRIVATE diopi::headers ${ARG_KERNELS})
  # Only the standard's C entry points are exported: neither the kernels' C++
  # symbols nor template instantiations from the C++ library.
  set(_exports ${_out}/exports.map)
  file(WRITE ${_exports} "{\n  global: diopi*;\n  local: *;\n};\n")
  target_link_options(${target} PRIVATE -Wl,--exclude-libs,ALL -Wl,--version-script=${_exports})
  set_property(TARGET ${target} APPEND PROPERTY LINK_DEPENDS ${_exports})
  set_target_properties(${target} PROPERTIES CXX_STANDARD 17 CXX_STANDARD_REQUIRED ON)
  target_compile_options(${target} PRIVATE -Wall -Wno-unused-parameter)
  _diopi_adaptor_bench(${target} ${ARG_VENDOR} ${ARG_KERNELS})
endfunction()

# The overhead benchmark (built on demand: `cmake --build <build> --target diopi_adaptor_bench`).
function(_diopi_adaptor_bench target vendor kernels)
  if(NOT DIOPI_BUILD_TESTRT OR TARGET diopi_adaptor_bench)
    return()
  endif()
  add_executable(diopi_adaptor_bench EXCLUDE_FROM_ALL ${DIOPI_ADAPTOR_DIR}/bench/overhead.cpp)
  target_compile_definitions(diopi_adaptor_bench PRIVATE DIOPI_BENCH_VENDOR=${vendor}
                             DIOPI_BENCH_IMPL_LIB="$<TARGET_FILE:${target}>")
  target_link_libraries(diopi_adaptor_bench PRIVATE ${kernels} diopirt ${CMAKE_DL_LIBS})
  set_target_properties(diopi_adaptor_bench PROPERTIES CXX_STANDARD 17 RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/bin)
  add_dependencies(diopi_adaptor_bench ${target})
endfunction()
