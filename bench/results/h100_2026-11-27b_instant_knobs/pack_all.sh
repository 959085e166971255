#!/usr/bin/env bash
# The slim build with every binary in one tgz (the 64 MiB limit): CTestTestfiles stay plain, binaries are packed.
set -e
rm -rf .device-build
bash ../shared/device/slim-build.sh build .device-build > /dev/null
cd .device-build
rm -rf _CPack_Packages
find tests/gui -type f ! -name CTestTestfile.cmake -delete
rm -f tests/cli_* tests/engine_host_tests tests/nvrtc_compile_tests tests/kernel_exercise_nvrtc_tests 2>/dev/null || true
files=$(find . -type f -perm -u+x ! -name '*.cmake' | sed 's#^\./##')
tar czf bin.tgz $files && rm -f $files
du -sh . bin.tgz
