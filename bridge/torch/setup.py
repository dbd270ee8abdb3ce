"""An installed (not editable) diopi_torch carries the device's built extension
with it: the build step copies libdiopi_torch.so and the distributed module
from the build folder ($DIOPI_BRIDGE_BUILD_DIR, else <checkout>/build/bridge,
where scripts/build_bridge.sh builds them) into diopi_torch/_lib, where
diopi_torch/_C.py looks first. An editable install needs no copy: _C finds the
checkout's build folder itself. Everything else is in pyproject.toml."""
import glob
import os
import shutil

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))


class BuildWithExtension(build_py):
    def run(self):
        super().run()
        if self.editable_mode:
            return
        build = os.environ.get("DIOPI_BRIDGE_BUILD_DIR") or os.path.join(HERE, "..", "..", "build", "bridge")
        built = glob.glob(os.path.join(build, "libdiopi_torch.so")) + glob.glob(os.path.join(build, "_distributed*.so"))
        if not built:
            print(f"diopi_torch: no built extension in {build}; the installed package will need $DIOPI_TORCH_EXT "
                  "(bash scripts/build_bridge.sh builds it)")
            return
        lib = os.path.join(self.build_lib, "diopi_torch", "_lib")
        os.makedirs(lib, exist_ok=True)
        for path in built:
            shutil.copy2(path, lib)


setup(cmdclass={"build_py": BuildWithExtension})
