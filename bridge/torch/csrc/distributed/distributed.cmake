# The diopi device's torch.distributed backend ("diccl", csrc/distributed/distributed.cpp): a Python extension module next to
# libdiopi_torch.so, because torch.distributed takes backend objects from Python. It links libdiopi_torch.so (the
# loaded vendor library, tensor handles) and libtorch_python (the Python types of c10d's Store and Backend).
diopi_ask_python("import sysconfig; print(sysconfig.get_paths()['include'] + ';' + sysconfig.get_config_var('EXT_SUFFIX'))"
  "cannot ask ${Python3_EXECUTABLE} for its include directory" DIOPI_PY_INCLUDE DIOPI_PY_EXT_SUFFIX)
add_library(diopi_torch_distributed MODULE ${CMAKE_CURRENT_SOURCE_DIR}/csrc/distributed/distributed.cpp)
set_target_properties(diopi_torch_distributed PROPERTIES PREFIX "" OUTPUT_NAME _distributed SUFFIX ${DIOPI_PY_EXT_SUFFIX}
  CXX_STANDARD 20 CXX_STANDARD_REQUIRED ON CXX_VISIBILITY_PRESET hidden
  LIBRARY_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR} BUILD_RPATH "${TORCH_DIR}/lib;${CMAKE_BINARY_DIR}")
target_include_directories(diopi_torch_distributed PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/csrc ${ROOT}/proto/include
  ${ROOT}/proto/support/include
  SYSTEM PRIVATE ${TORCH_DIR}/include ${TORCH_DIR}/include/torch/csrc/api/include ${DIOPI_PY_INCLUDE})
target_compile_definitions(diopi_torch_distributed PRIVATE _GLIBCXX_USE_CXX11_ABI=${TORCH_CXX11_ABI})
target_compile_options(diopi_torch_distributed PRIVATE -Wall -Wno-unused-parameter)
target_link_directories(diopi_torch_distributed PRIVATE ${TORCH_DIR}/lib)
target_link_libraries(diopi_torch_distributed PRIVATE diopi_torch torch_python torch_cpu c10)
