# Sourced by the session-30 calls: Open MPI from .device-rt (relocated with OPAL_PREFIX), one node, shared memory.
if ! command -v mpirun >/dev/null; then
    for prefix in /opt/rt/usr "$PWD/.device-rt/usr"; do
        if [ -x "$prefix/bin/mpirun" ]; then
            export OPAL_PREFIX=$prefix PATH=$prefix/bin:$PATH
            export LD_LIBRARY_PATH=$prefix/lib/x86_64-linux-gnu:$prefix/lib/x86_64-linux-gnu/openmpi/lib:${LD_LIBRARY_PATH:-}
            break
        fi
    done
fi
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl=self,vader OMPI_MCA_pml=ob1 OMPI_MCA_rmaps_base_oversubscribe=1 PMIX_MCA_pcompress_base_silence_warning=1
