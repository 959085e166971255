#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds a CUDA-aware Open MPI 4.1.4 (Debian 12's source, the version the CLI is linked against, so the
# same stencilscope-cli runs on either library: MpiWorld::cuda_aware asks at run time) into PREFIX, for
# the CUDA-aware measurements in docs/PERFORMANCE.md. Outside the project's build; needs deb-src lines.
# Usage: bench/build_cuda_aware_openmpi.sh [PREFIX=/opt/ompi-cuda] [WORKDIR=/tmp/ompi-cuda-src]
set -euo pipefail
prefix=${1:-/opt/ompi-cuda} work=${2:-/tmp/ompi-cuda-src}
mkdir -p "$work" && cd "$work"
apt-get source --download-only openmpi=4.1.4-3
tar -xJf openmpi_4.1.4.orig.tar.xz && cd openmpi-4.1.4
./configure --prefix="$prefix" --with-cuda=/usr/local/cuda --disable-mpi-fortran --disable-oshmem --without-ucx \
    --without-verbs --without-ofi --with-hwloc=internal --with-libevent=internal --with-pmix=internal \
    --disable-static --disable-man-pages
make -j"$(nproc)" && make install
"$prefix/bin/ompi_info" --parsable --all | grep mpi_built_with_cuda_support:value
# Run with: OPAL_PREFIX=$prefix PATH=$prefix/bin:$PATH LD_LIBRARY_PATH=$prefix/lib:/usr/lib/x86_64-linux-gnu \
#           OMPI_MCA_btl=self,smcuda,vader mpirun -np 2 stencilscope-cli bench ...
