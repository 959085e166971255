#!/usr/bin/env python3
# Not yet run (for the next four-GPU machine): apply after trade_times.py and push_probe.py. Before each push it
# also packs the same face into the rank's own packed-face buffer (local reads, local contiguous writes) and times
# that on the GPU, so the 2x2 grid's slow x push can be told apart: a slow local pack means the strided reads of the
# own field are what is slow; a fast one puts it on the remote strided writes (then: pack locally and send one
# contiguous copy, or let the receiver pull).
p = 'gpu/backends/cuda/rank_domain_cuda.cpp'
s = open(p).read()
assert 'g_dbg_push_gpu_ms' in s, 'apply push_probe.py first'
s = s.replace('double g_dbg_push_gpu_ms[3] = {};', 'double g_dbg_push_gpu_ms[3] = {};\ndouble g_dbg_pack_gpu_ms[3] = {};')
old = '''        cudaEvent_t a, b;
        cudaEventCreate(&a), cudaEventCreate(&b);
        cudaEventRecord(a, m_faces);'''
new = '''        cudaEvent_t a, b;
        cudaEventCreate(&a), cudaEventCreate(&b);
        cudaEventRecord(a, m_faces);
        cuda_check(queue_pack_face(current(), face_box(send_face(m_plan, axis, side)), m_packed, m_faces), "pack");
        cudaEventRecord(b, m_faces);
        cuda_check(cudaStreamSynchronize(m_faces), "pack");
        float pack_ms = 0;
        cudaEventElapsedTime(&pack_ms, a, b);
        g_dbg_pack_gpu_ms[axis] += pack_ms;
        cudaEventRecord(a, m_faces);'''
assert old in s
s = s.replace(old, new)
open(p, 'w').write(s)
p = 'app/cli/rank_grid_run.cpp'
s = open(p).read()
old = '''        for (double& v : g_dbg_push_gpu_ms) v = 0;'''
assert old in s, 'apply push_probe.py first'
s = s.replace(old, '''        for (double& v : g_dbg_push_gpu_ms) v = 0;
        std::printf(" | gpu pack x %.4f y %.4f", g_dbg_pack_gpu_ms[0] / (trades[0] ? trades[0] : 1),
            g_dbg_pack_gpu_ms[1] / (trades[1] ? trades[1] : 1));
        for (double& v : g_dbg_pack_gpu_ms) v = 0;''')
s = s.replace('extern double g_dbg_push_gpu_ms[3];', 'extern double g_dbg_push_gpu_ms[3];\nextern double g_dbg_pack_gpu_ms[3];', 1)
open(p, 'w').write(s)
