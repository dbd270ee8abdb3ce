# Tables that C/C++ code needs from the standard's enums (enumerator names for
# messages), generated from the header model (proto/python/diopi_header) into
# the build tree, never written by hand:
#   ${CMAKE_BINARY_DIR}/generated/include/diopi_tables.h
# The generator rewrites the file only when its text changes (a Ninja byproduct
# with restat), so touching a header's comments recompiles nothing.
#
#   diopi_use_header_tables(<target>)   # adds the include path and the build order
find_package(Python3 COMPONENTS Interpreter REQUIRED)
set(DIOPI_HEADER_PYTHON_DIR ${PROJECT_SOURCE_DIR}/proto/python)
set(DIOPI_TABLES_INCLUDE_DIR ${CMAKE_BINARY_DIR}/generated/include)

file(GLOB _diopi_header_py CONFIGURE_DEPENDS ${DIOPI_HEADER_PYTHON_DIR}/diopi_header/*.py)
file(GLOB _diopi_header_h CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/proto/include/diopi/*.h)
set(_diopi_tables_stamp ${CMAKE_BINARY_DIR}/generated/diopi_tables.stamp)
# PYTHONPATH / DIOPI_INCLUDE_DIR: this checkout's header model reads this checkout's headers,
# whichever copy of the package the interpreter may have installed.
add_custom_command(
  OUTPUT ${_diopi_tables_stamp}
  BYPRODUCTS ${DIOPI_TABLES_INCLUDE_DIR}/diopi_tables.h
  COMMAND ${CMAKE_COMMAND} -E env PYTHONPATH=${DIOPI_HEADER_PYTHON_DIR} DIOPI_INCLUDE_DIR=${PROJECT_SOURCE_DIR}/proto/include
          ${Python3_EXECUTABLE} -m diopi_header c-tables ${DIOPI_TABLES_INCLUDE_DIR}/diopi_tables.h --stamp ${_diopi_tables_stamp}
  DEPENDS ${_diopi_header_py} ${_diopi_header_h}
  COMMENT "diopi: generating diopi_tables.h from the header model"
  VERBATIM)
add_custom_target(diopi_header_tables DEPENDS ${_diopi_tables_stamp})

function(diopi_use_header_tables target)
  target_include_directories(${target} PRIVATE ${DIOPI_TABLES_INCLUDE_DIR})
  add_dependencies(${target} diopi_header_tables)
endfunction()
