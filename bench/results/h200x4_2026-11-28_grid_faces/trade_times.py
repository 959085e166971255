#!/usr/bin/env python3
# A throwaway timing build (not committed as code): patches app/cli/rank_grid_run.cpp so that every rank prints,
# after each timed run, per step: the wait for the boundary layers, per axis the face push (peer copies, waited
# for) and MPI's word that they landed, the wait for the step's end. Apply, build stencilscope-cli-mpi, copy the
# binary aside, then `git checkout app/cli/rank_grid_run.cpp`.
import re, sys
p = 'app/cli/rank_grid_run.cpp'
s = open(p).read()
s = s.replace('#include <chrono>', '''#include <chrono>
#include <cstdio>
namespace {
using DbgClock = std::chrono::steady_clock;
double dbg_ms(DbgClock::time_point a) { return std::chrono::duration<double, std::milli>(DbgClock::now() - a).count(); }
struct DbgTimes {
    double push[3] = {}, number[3] = {}, boundary = 0, end = 0; long long trades[3] = {}, steps = 0; int rank = -1;
    void print() {
        if (steps == 0) return;
        std::printf("DBG rank %d per step: boundary wait %.4f, end wait %.4f |", rank, boundary / steps, end / steps);
        for (int a = 0; a < 3; ++a) if (trades[a]) std::printf(" axis %c: push %.4f, number %.4f |", "xyz"[a], push[a] / trades[a], number[a] / trades[a]);
        std::printf("\\n");
        std::fflush(stdout);
        *this = DbgTimes();
    }
} g_dbg;
}''')
s = s.replace('''            m_domain.begin_step();
            m_domain.boundary_final();''', '''            m_domain.begin_step();
            { const auto b = DbgClock::now(); m_domain.boundary_final(); g_dbg.boundary += dbg_ms(b); ++g_dbg.steps; g_dbg.rank = m_world.rank(); }''')
s = s.replace('''    if (steps > 0) t.compute_ms /= steps, t.exchange_ms /= steps;''', '''    if (steps > 0) t.compute_ms /= steps, t.exchange_ms /= steps;
    g_dbg.print(); // printed before MPI_Finalize: output after it is lost''')
s = s.replace('''            t.compute_ms += m_domain.end_step();''', '''            { const auto e = DbgClock::now(); t.compute_ms += m_domain.end_step(); g_dbg.end += dbg_ms(e); }''')
s = s.replace('''        for (int side : { 0, 1 })
            if (neighbour[side] != kNoNeighbour) m_domain.push_face(axis, side);
        return m_world.trade_exchange_number(neighbour, m_exchanges, m_timeout_s, silent);''', '''        const auto p0 = DbgClock::now();
        for (int side : { 0, 1 })
            if (neighbour[side] != kNoNeighbour) m_domain.push_face(axis, side);
        g_dbg.push[axis] += dbg_ms(p0); ++g_dbg.trades[axis];
        const auto n0 = DbgClock::now();
        m_world.trade_exchange_number(neighbour, m_exchanges, m_timeout_s, silent);
        g_dbg.number[axis] += dbg_ms(n0);
        return;''')
s = s.replace('''            t.compute_ms += m_domain.compute_step();''', '''            t.compute_ms += m_domain.compute_step();
            ++g_dbg.steps, g_dbg.rank = m_world.rank();''')
assert s.count('g_dbg') >= 10, 'patch did not apply'
open(p, 'w').write(s)
