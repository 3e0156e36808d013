"""The LLM kernel family (``evaluator/suite/patterns/llm.py``): its references checked against
independent decodings (bit strings, per-head loops, a different pairing of RoPE), the paged cache
against the contiguous one, the top-p answer's robustness on the inputs the harness draws, and the
canonical 4-bit compute's nibble order and the GPU path's scan through TVM on small shapes."""

import numpy as np
import pytest

from evaluator import suite
from evaluator.suite import refs
from evaluator.suite.inputs import generate
from evaluator.suite.patterns import llm

# hand-written bytes: all zeros, all ones, one nibble at each extreme, mixed
BYTES = np.array([[0x00, 0xFF, 0x8F, 0x1E], [0x70, 0x07, 0xA5, 0x5A]], dtype=np.uint8)


def _bit_decode(byte: int) -> list[int]:
    """A byte's two 4-bit codes from its bit string: low nibble (the element first), then high."""
    bits = format(int(byte), "08b")
    return [int(bits[4:], 2), int(bits[:4], 2)]


def _expected_codes(P):
    return np.array([[c for byte in row for c in _bit_decode(byte)] for row in P])


def test_w4_unpacking_matches_a_bit_level_decode():
    codes = _expected_codes(BYTES)
    assert codes[0].tolist() == [0, 0, 15, 15, 15, 8, 14, 1]
    assert codes[1].tolist() == [0, 7, 7, 0, 5, 10, 10, 5]
    assert (llm.unpack_w4(BYTES.astype(np.int64)) == codes).all()
    # dequantised with groups of 4: the symmetric form subtracts 8, the asymmetric one its zero point
    p = {"g": 4}
    scale = np.array([[0.5, 2.0], [1.0, 0.25]])
    group_scale = np.repeat(scale, 4, axis=1)
    sym = llm.dequant_ref(p, "w4", BYTES.astype(np.int64), scale)
    assert np.array_equal(sym, (codes - 8) * group_scale)
    zero = np.array([[0, 15], [3, 8]])
    asym = llm.dequant_ref(p, "w4", BYTES.astype(np.int64), scale, zero)
    assert np.array_equal(asym, (codes - np.repeat(zero, 4, axis=1)) * group_scale)
    w8 = np.array([[-127, 0, 5, 127, 1, -1, 64, -64]])
    assert np.array_equal(llm.dequant_ref(p, "w8", w8, np.array([[0.5, 2.0]])), w8 * np.array([[0.5] * 4 + [2.0] * 4]))


def _build_and_run(args, outs, arrays):
    import tvm
    from tvm import te

    mod = tvm.IRModule({"main": te.create_prim_func(args + outs)})
    ex = tvm.compile(mod, target=tvm.target.Target({"kind": "llvm"}))
    dev = tvm.cpu()
    got = [tvm.runtime.tensor(np.zeros([int(d) for d in o.shape], str(o.dtype)), dev) for o in outs]
    ex["main"](*[tvm.runtime.tensor(a, dev) for a in arrays], *got)
    return [g.numpy() for g in got]


@pytest.mark.parametrize("zp", [False, True])
def test_the_canonical_4bit_gemv_reads_nibbles_low_first(zp):
    """x = e_c picks column c of the dequantised weight out of TVM's canonical GEMV: every column of
    the hand-written bytes must come out as the bit strings say."""
    from tvm import te

    n, k, g = 2, 8, 4
    p = {"n": n, "k": k, "g": g}
    scale = np.array([[0.5, 2.0], [1.0, 0.25]], dtype=np.float16)
    zero = np.array([[0, 15], [3, 8]], dtype=np.uint8)
    eye = np.eye(k, dtype=np.float16)
    x = te.placeholder((k,), "float16", "x")
    P = te.placeholder((n, k // 2), "uint8", "P")
    S = te.placeholder((n, k // g), "float16", "scale")
    Z = [te.placeholder((n, k // g), "uint8", "zero")] if zp else []
    y = llm._qmatmul("w4", True)(p, x, P, S, *Z)
    cols = []
    for c in range(k):
        (got,) = _build_and_run([x, P, S, *Z], [y], [eye[c], BYTES, scale, *([zero] if zp else [])])
        cols.append(got.astype(np.float64))
    zeros = np.repeat(zero, g, axis=1) if zp else 8
    expected = (_expected_codes(BYTES) - zeros) * np.repeat(scale.astype(np.float64), g, axis=1)
    assert np.array_equal(np.stack(cols, axis=1), expected)


def _decode_loop(Q, K, V, lens):
    """Decode attention one sequence and one query head at a time (head hq reads kv head hq // (h/g))."""
    b, h, d = Q.shape
    g = K.shape[2]
    out = np.zeros(Q.shape)
    for i in range(b):
        for hq in range(h):
            kv = hq // (h // g)
            keys, values = K[i, :lens[i], kv], V[i, :lens[i], kv]
            s = keys @ Q[i, hq] / np.sqrt(d)
            w = np.exp(s - s.max())
            out[i, hq] = (w / w.sum()) @ values
    return out


@pytest.mark.parametrize("g", [8, 2, 1])
def test_decode_reference_matches_a_per_head_loop(g):
    rng = np.random.default_rng(g)
    b, h, n, d = 3, 8, 40, 16
    Q, K, V = rng.standard_normal((b, h, d)), rng.standard_normal((b, n, g, d)), rng.standard_normal((b, n, g, d))
    lens = np.array([1, 17, 40])
    assert np.allclose(llm.decode_ref(Q, K, V, lens), _decode_loop(Q, K, V, lens), rtol=1e-12, atol=1e-12)


def test_paged_decode_equals_contiguous_when_pages_are_in_order():
    rng = np.random.default_rng(0)
    b, h, g, d, page, pps = 3, 8, 2, 16, 4, 5
    p = {"b": b, "h": h, "g": g, "d": d, "page": page, "pps": pps}
    Q = rng.standard_normal((b, h, d))
    K, V = rng.standard_normal((b, pps * page, g, d)), rng.standard_normal((b, pps * page, g, d))
    lens = np.array([1, 9, pps * page])
    contiguous = llm.decode_ref(Q, K, V, lens)
    in_order = np.arange(b * pps).reshape(b, pps)
    Kp, Vp = K.reshape(b * pps, page, g, d), V.reshape(b * pps, page, g, d)
    assert np.array_equal(llm._decode_paged_ref(p, Q, Kp, Vp, in_order, lens), contiguous)
    # the pages scattered over the pool, the table following them: the same answer
    perm = rng.permutation(b * pps)
    Ks, Vs = np.empty_like(Kp), np.empty_like(Vp)
    Ks[perm], Vs[perm] = Kp, Vp
    assert np.array_equal(llm._decode_paged_ref(p, Q, Ks, Vs, perm[in_order], lens), contiguous)


def test_a_block_table_is_a_permutation_row_in_every_drawn_set():
    w = next(w for w in suite.workloads() if w.pattern.id == "llm/decode-paged")
    names = [t.name for t in w.inputs]
    for seed in range(3):
        table = generate(w, seed)[names.index("block_table")]
        pages = w.inputs[names.index("k_pages")].shape[0]
        assert table.min() >= 0 and table.max() < pages
        assert all(len(np.unique(row)) == row.size for row in table)


def _interleave(x):
    """Half-split order (i, i + d/2) → interleaved order (2i, 2i + 1)."""
    half = x.shape[-1] // 2
    return np.stack([x[..., :half], x[..., half:]], axis=-1).reshape(x.shape)


def test_rope_variants_are_one_rotation_paired_differently():
    rng = np.random.default_rng(1)
    X = rng.standard_normal((3, 4, 16))
    pos = np.array([0, 5, 511])
    inter, neox = llm.rope_ref(X, pos, False), llm.rope_ref(X, pos, True)
    assert np.allclose(llm.rope_ref(_interleave(X), pos, False), _interleave(neox), rtol=0, atol=1e-12)
    assert np.array_equal(inter[0], X[0]) and np.array_equal(neox[0], X[0])  # position 0: no rotation
    pairs = (inter.reshape(3, 4, 8, 2) ** 2).sum(-1)  # a rotation keeps each pair's length
    assert np.allclose(pairs, (X.reshape(3, 4, 8, 2) ** 2).sum(-1))
    # pair 0 turns by pos radians, the last pair by pos * 10000^(-14/16)
    angle = np.arctan2(inter[1, 0, 1], inter[1, 0, 0]) - np.arctan2(X[1, 0, 1], X[1, 0, 0])
    assert np.isclose(np.mod(angle - 5.0, 2 * np.pi), 0.0) or np.isclose(np.mod(angle - 5.0, 2 * np.pi), 2 * np.pi)


@pytest.mark.parametrize("neox", [False, True])
def test_the_kv_append_writes_only_the_row_at_pos(neox):
    rng = np.random.default_rng(2)
    b, h, g, d, n = 3, 4, 2, 8, 6
    p = {"b": b, "h": h, "g": g, "d": d, "n": n}
    Q, K, V = rng.standard_normal((b, h, d)), rng.standard_normal((b, g, d)), rng.standard_normal((b, g, d))
    Kc, Vc = rng.standard_normal((b, n, g, d)), rng.standard_normal((b, n, g, d))
    pos = np.array([0, 3, n - 1])
    q, kc, vc = llm._rope_append_ref(neox)(p, Q, K, V, Kc, Vc, pos)
    for i in range(b):
        other = np.arange(n) != pos[i]
        assert np.array_equal(kc[i, other], Kc[i, other]) and np.array_equal(vc[i, other], Vc[i, other])
        assert np.array_equal(vc[i, pos[i]], V[i])
        assert np.allclose(kc[i, pos[i]], llm.rope_ref(K[i:i + 1], pos[i:i + 1], neox)[0])
    assert np.array_equal(q[0], Q[0])  # pos 0
    assert not np.allclose(kc[1, 3], K[1])


def test_top_p_keeps_the_shortest_prefix_that_reaches_p():
    probs = np.array([0.05, 0.5, 0.15, 0.3])
    # mass before each rank: 0, 0.5, 0.8, 0.95 → ranks 0-2 kept (0.95 >= 0.9 reached by the third)
    assert np.allclose(llm.top_p_ref({}, np.log(probs)[None])[0], [0.0, 0.5 / 0.95, 0.15 / 0.95, 0.3 / 0.95])
    assert np.allclose(llm.top_p_ref({}, np.log([[0.03, 0.95, 0.02]]))[0], [0.0, 1.0, 0.0])  # one token alone
    # a tie at the cut: both tokens in, whichever of them a sort puts first
    tied = np.log([[0.6, 0.15, 0.15, 0.1]])
    assert np.allclose(llm.top_p_ref({}, tied)[0], [0.6 / 0.9, 0.15 / 0.9, 0.15 / 0.9, 0.0])
    assert np.allclose(llm.top_p_ref({}, tied[:, ::-1])[0], [0.0, 0.15 / 0.9, 0.15 / 0.9, 0.6 / 0.9])


def test_top_k_takes_the_k_largest_ties_to_the_lower_index():
    x = np.array([[0.1, 3.0, -1.0, 2.0, 2.5, 2.0]])
    idx, probs = llm._top_k_ref({"k": 3}, x)
    assert idx[0].tolist() == [1, 4, 3]
    assert np.allclose(probs[0], refs.softmax(np.array([3.0, 2.5, 2.0])))
    idx, _ = llm._top_k_ref({"k": 4}, x)
    assert idx[0].tolist() == [1, 4, 3, 5]


def test_top_p_cut_tokens_are_below_the_tolerance_in_every_checked_set():
    """A kernel's float32 mass may cut the nucleus one token away from where the reference does (a
    margin of 1e-9 was seen in 1,600 rows): harmless only while the last token in and the first one
    out are far below the float32 tolerance (1e-4) after renormalising."""
    from evaluator.harness.protocol import Protocol, tolerance

    atol, _ = tolerance("float32")
    for w in (w for w in suite.workloads() if w.pattern.id == "llm/top-p"):
        for seed in Protocol().seeds:
            (x,) = generate(w, seed)
            out = llm.top_p_ref(w.params, x.astype(np.float64))
            probs = refs.softmax(x.astype(np.float64))
            mass = np.where(out > 0, probs, 0).sum(axis=1)
            last_in = np.where(out > 0, probs, np.inf).min(axis=1) / mass
            first_out = np.where(out > 0, 0, probs).max(axis=1) / mass
            assert ((out > 0).sum(axis=1) > 1).all() and (out == 0).any(axis=1).all(), w.id
            assert (last_in < atol / 4).all() and (first_out < atol / 4).all(), w.id


def test_the_gpu_paths_blocked_scan_is_an_exclusive_cumsum():
    from tvm import te

    p = {"b": 2, "v": 3 * llm.SCAN_BLOCK}
    x = np.random.default_rng(3).uniform(0, 1, (p["b"], p["v"])).astype(np.float32)
    X = te.placeholder(x.shape, "float32", "x")
    (got,) = _build_and_run([X], [llm._exclusive_cumsum(p, X)], [x])
    expected = np.cumsum(x.astype(np.float64), axis=1) - x
    assert np.allclose(got, expected, rtol=1e-5, atol=1e-5)
    assert (got[:, 0] == 0).all()
    with pytest.raises(ValueError, match="multiple"):
        llm._exclusive_cumsum({"b": 1, "v": 1000}, te.placeholder((1, 1000), "float32", "y"))


def test_every_shape_fits_a_device_run_step():
    """A device backend's run step holds a copy of every tensor per arena slot, inputs the slots
    share included: a 16 MiB KV cache took PoCL past its 4 GiB (256 slots). Public and drawn
    held-out shapes keep their inputs under MAX_INPUT_BYTES, 1.5 GiB of device memory at most."""
    from evaluator.backends.opencl import OpenCL
    from evaluator.harness import messages as m
    from evaluator.harness.timing import arena_plan
    from evaluator.suite import heldout
    from evaluator.suite.base import WorkloadDef

    for p in (p for p in suite.patterns() if p.family == "llm"):
        drawn = [WorkloadDef(p, s) for secret in ("held-out-test-secret-one", "held-out-test-secret-two")
                 for s in heldout.draw(p, secret)]
        for w in [suite.get_workload(f"{p.id}@{s.tag}") for s in p.workloads] + drawn:
            assert sum(t.nbytes for t in w.inputs) <= llm.MAX_INPUT_BYTES, w.id
            specs = [m.TensorSpec(t.name, t.shape, t.dtype) for t in w.inputs] + \
                    [m.TensorSpec(t.name, t.shape, t.dtype, "output") for t in w.outputs]
            marked, slots = arena_plan(specs, OpenCL.max_slots)
            per_slot = sum(int(np.prod(t.shape)) * np.dtype(t.dtype).itemsize for t in marked)
            assert slots * per_slot <= 1.5 * (1 << 30), (w.id, slots, per_slot)


def test_float16_outputs_use_under_a_quarter_of_the_tolerance():
    """float16 workloads compute in float32 and round once: TVM's unscheduled build is off from the
    float64 reference by that rounding, far inside the float16 tolerance (a float16 accumulation,
    or a dequantisation rounded to float16 first, would not be)."""
    import tvm

    from evaluator.harness.protocol import tolerance

    atol, rtol = tolerance("float16")
    for p in (p for p in suite.patterns() if p.family == "llm"):
        w = min((suite.get_workload(f"{p.id}@{s.tag}") for s in p.workloads), key=lambda w: w.bytes)
        if w.dtype != "float16":
            continue
        arrays = generate(w, 1)
        dev = tvm.cpu()
        ex = tvm.compile(w.canonical_module(), target=tvm.target.Target({"kind": "llvm"}))
        outs = [tvm.runtime.tensor(np.zeros(t.shape, t.dtype), dev) for t in w.outputs]
        ex["main"](*[tvm.runtime.tensor(a, dev) for a in arrays], *outs)
        for got, ref, spec in zip(outs, w.reference(arrays), w.outputs):
            if spec.dtype != "float16":
                continue
            g, r = got.numpy().astype(np.float64), ref.astype(np.float64)
            assert (np.abs(g - r) / (atol + rtol * np.abs(r))).max() < 0.25, (w.id, spec.name)
