#!/usr/bin/env python3
# A throwaway probe (not committed as code; apply after trade_times.py, build stencilscope-cli-mpi, copy the binary
# aside, then `git checkout gpu/backends/cuda app/cli`): the face push's GPU time (CUDA events around the copy on the
# faces' stream) per axis beside the host's wait, and DBG_CE_ROW_BYTES (environment) replacing the 512-byte row
# length from which a face goes by the copy engine (0: every face by the copy engine).
p = 'gpu/backends/cuda/rank_domain_cuda.cpp'
s = open(p).read()
s = s.replace('#include <algorithm>', '#include <algorithm>\n\ndouble g_dbg_push_gpu_ms[3] = {};')
old = '''        cuda_check(queue_copy_box(current(), face_box(send_face(m_plan, axis, side)),
                       m_peers[axis].target(side, parity), m_peer_face[axis][side], m_faces),
            "face peer copy");
        cuda_check(cudaStreamSynchronize(m_faces), "face peer copy");'''
new = '''        cudaEvent_t a, b;
        cudaEventCreate(&a), cudaEventCreate(&b);
        cudaEventRecord(a, m_faces);
        cuda_check(queue_copy_box(current(), face_box(send_face(m_plan, axis, side)),
                       m_peers[axis].target(side, parity), m_peer_face[axis][side], m_faces),
            "face peer copy");
        cudaEventRecord(b, m_faces);
        cuda_check(cudaStreamSynchronize(m_faces), "face peer copy");
        float ms = 0;
        cudaEventElapsedTime(&ms, a, b);
        g_dbg_push_gpu_ms[axis] += ms;
        cudaEventDestroy(a), cudaEventDestroy(b);'''
assert old in s
s = s.replace(old, new)
open(p, 'w').write(s)
p = 'gpu/backends/cuda/face_packing.cu'
s = open(p).read()
old = 'constexpr std::size_t kCopyEngineRowBytes = 512;'
assert old in s
s = s.replace(old, '''static std::size_t ce_rows() {
    const char* v = std::getenv("DBG_CE_ROW_BYTES");
    return v ? std::size_t(std::atoll(v)) : 512;
}
static const std::size_t kCopyEngineRowBytes = ce_rows();''')
s = s.replace('#include <cstdint>', '#include <cstdint>\n#include <cstdlib>')
open(p, 'w').write(s)
p = 'app/cli/rank_grid_run.cpp'
s = open(p).read()
old = '''        std::printf("\\n");'''
assert old in s, 'apply trade_times.py first'
s = s.replace(old, '''        std::printf(" gpu push x %.4f y %.4f z %.4f", g_dbg_push_gpu_ms[0] / (trades[0] ? trades[0] : 1),
            g_dbg_push_gpu_ms[1] / (trades[1] ? trades[1] : 1), g_dbg_push_gpu_ms[2] / (trades[2] ? trades[2] : 1));
        for (double& v : g_dbg_push_gpu_ms) v = 0;
        std::printf("\\n");''')
s = s.replace('namespace {\nusing DbgClock', 'extern double g_dbg_push_gpu_ms[3];\nnamespace {\nusing DbgClock', 1)
open(p, 'w').write(s)
