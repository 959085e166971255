#!/usr/bin/env bash
# Fresh Debian 12 with the CUDA toolkit in /usr/local/cuda: install the build and test dependencies
# with apt-get, then configure and build
#   ./build       everything (GUI included), the build the tests run from;
#   ./build-cpu   the CPU-only configuration (-DSTENCILSCOPE_CUDA=OFF, without MPI), run by ctest's cpu_only_build_tests;
#   ./build-asan  the asan preset (host code under ASan + UBSan, GUI off), run by ctest's sanitizers test;
#   ./build-fuzz  the setup-loader fuzzer (clang + libFuzzer + ASan/UBSan, -DSTENCILSCOPE_FUZZER=ON), run by ctest's fuzz_setup_loader.
# Without nvcc (no CUDA toolkit) ./build itself is CPU-only, and ./build-cpu is not made.
set -euo pipefail
cd "$(dirname "$0")/.."
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# clang-14 + libclang-rt-14-dev: libFuzzer and its sanitizer runtimes (a Recommends, so named here).
# dpkg-dev (dpkg-shlibdeps), file and lintian: the Debian package and its test (scripts/package-test.sh).
# libcli11-dev: the command-line parser (header-only). clang-tidy-14: the curated checks (ctest clang_tidy). locales: a decimal-comma locale for the CSV tests.
# openmpi-bin + libopenmpi-dev: optional, multi-process runs under mpirun (STENCILSCOPE_MPI) and their tests.
# python3: the bench/ scripts and the scaling model's test (ctest scaling_model).
$SUDO apt-get install -y -qq --no-install-recommends \
    build-essential cmake ninja-build git libgtest-dev libcli11-dev locales clang-format clang-14 libclang-rt-14-dev \
    qt6-base-dev qt6-base-dev-tools libqt6opengl6-dev qt6-charts-dev libqt6svg6-dev libgl-dev \
    xvfb xauth dpkg-dev file lintian openmpi-bin libopenmpi-dev clang-tidy-14 python3 >/dev/null
$SUDO localedef -i de_DE -f UTF-8 de_DE.UTF-8 # decimal comma: files must not follow the process's locale
nvcc=/usr/local/cuda/bin/nvcc
if [ -x "$nvcc" ]; then
    cuda=(-DCMAKE_CUDA_COMPILER="$nvcc")
else
    echo "setup-and-build: nvcc not found (no CUDA toolkit in /usr/local/cuda): building the CPU-only configuration"
    cuda=(-DSTENCILSCOPE_CUDA=OFF)
fi
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release "${cuda[@]}"
# Two cores: a few fat translation units, no template explosion (kernels are generated at run time).
cmake --build build -j "$(nproc)"
if [ -x "$nvcc" ]; then # what a machine without the toolkit (or MPI) builds, so that CI tests it too
    cmake -S . -B build-cpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DSTENCILSCOPE_CUDA=OFF -DSTENCILSCOPE_MPI=OFF
    cmake --build build-cpu -j "$(nproc)"
fi
cmake --preset asan "${cuda[@]}"
cmake --build build-asan -j "$(nproc)"
cmake -S . -B build-fuzz -G Ninja -DSTENCILSCOPE_FUZZER=ON -DCMAKE_CXX_COMPILER=clang++-14 "${cuda[@]}"
cmake --build build-fuzz -j "$(nproc)" --target setup_loader_fuzzer
