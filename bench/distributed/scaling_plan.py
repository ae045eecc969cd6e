#!/usr/bin/env python3
# The scaling plan of the distributed sort by the model: predicted time for 16-1024 ranks from one measured
# rank's modelled device time per byte (a `flashxxl dsort --json` run) and the network model.
"""Usage: scaling_plan.py DSORT.json [--share-gb 500] [--memory-gib 32] [--gbit 10] [--latency-us 20] [--json OUT]

Per rank: a share of D bytes, memory M, block sizes Br / Bw of the measured run. Device time: D times the
measured run's modelled device seconds per input byte (its two reads and two writes per item, on its machine).
Network (per rank, links into a non-blocking switch): the exchange sends D (P-1)/P bytes at the link rate;
each of its all-to-all steps costs P latencies (pairwise exchange), with pieces of min(Bw, M / (8 P)) per
destination; the selection (over the runs' page index, no reads) costs 3 log2(P D / Br) rounds per batch of 8
targets, each an all_gather of log2(P) latencies and about 100 bytes per run and target from every rank.
Memory of the exchange: its buffers, the kept cut pages (3 P R Br) and a slice with its imbalance
((P R + 1) Br); while they fit (the two-pass condition), every page is read twice and there are no extra
reads; where they do not, the cut pages are read once per piece, P Q R Br bytes more (Q slices, R runs)."""
import argparse, json, math

ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
ap.add_argument("dsort_json")
ap.add_argument("--share-gb", type=float, default=500.0, help="bytes sorted per rank, GB (DEMSort: 100 TB / 195 = 513)")
ap.add_argument("--memory-gib", type=float, default=32.0)
ap.add_argument("--gbit", type=float, default=10.0)
ap.add_argument("--latency-us", type=float, default=20.0)
ap.add_argument("--json")
a = ap.parse_args()
run = json.load(open(a.dsort_json))
per_byte = max(r["device_modelled_s"] for r in run["per_rank"]) / (run["input_bytes"] / run["ranks"])
br, bw = run["br"], run["bw"]
D, M = a.share_gb * 1e9, a.memory_gib * 2**30
link, lat = a.gbit * 1e9 / 8, a.latency_us * 1e-6
rows = []
for P in (16, 64, 256, 1024):
    piece = min(bw, M / (8 * P))
    fixed = 2 * bw + P * (bw + br + 4 * piece)  # writer; per destination a reader of Bw + Br and 4 pieces
    R = math.ceil(D / (M - 2 * bw - 2 * br))
    kept, imbalance = 3 * P * R * br, (P * R + 1) * br
    two_pass = M - fixed - kept - imbalance >= bw
    Q = math.ceil(D / (M - fixed - kept - imbalance)) if two_pass else math.ceil(D / bw)
    extra = 0 if two_pass else P * Q * R * br
    device = per_byte * (D + extra / 2)  # extra bytes are reads: about half the per-byte cost of a read + write
    steps = Q * math.ceil(D / (P * Q) / piece)
    exchange = D * (P - 1) / P / link + steps * P * lat
    targets = P * Q + 1
    rounds = 3 * math.log2(D * P / br) * math.ceil(targets / 8)
    selection = rounds * (math.log2(P) * lat + P * R * 8 * 132 / link)
    network = exchange + selection
    serial, overlapped = device + network, max(device, network)
    rows.append({"ranks": P, "share_gb": a.share_gb, "total_tb": P * D / 1e12, "slices": Q, "runs": R,
                 "piece_mib": piece / 2**20, "two_pass": two_pass, "extra_read_fraction": extra / (2 * D),
                 "device_s": device, "exchange_s": exchange, "selection_s": selection,
                 "modelled_s_no_overlap": serial, "modelled_s_overlapped": overlapped,
                 "gb_per_min_per_node": D / 1e9 / (serial / 60)})
print(f"scaling plan: {a.share_gb:g} GB per rank, M = {a.memory_gib:g} GiB, Br = {br // 1024} KiB, Bw = {bw // 2**20} MiB, "
      f"network {a.gbit:g} Gbit/s + {a.latency_us:g} us; device {per_byte * 1e9:.3f} s per GB sorted (from {a.dsort_json})")
print(f"{'ranks':>6} {'total TB':>9} {'Q':>4} {'R':>4} {'piece MiB':>9} {'extra reads':>11} {'device s':>9} "
      f"{'exchange s':>10} {'selection s':>11} {'total s':>8} {'overlapped s':>12} {'GB/min/node':>11}")
for r in rows:
    print(f"{r['ranks']:6d} {r['total_tb']:9.1f} {r['slices']:4d} {r['runs']:4d} {r['piece_mib']:9.2f} "
          f"{100 * r['extra_read_fraction']:10.2f}% {r['device_s']:9.0f} {r['exchange_s']:10.0f} {r['selection_s']:11.2f} "
          f"{r['modelled_s_no_overlap']:8.0f} {r['modelled_s_overlapped']:12.0f} {r['gb_per_min_per_node']:11.2f}")
if a.json:
    json.dump({"plan": "distributed sort scaling", "inputs": vars(a), "device_s_per_byte": per_byte, "rows": rows},
              open(a.json, "w"), indent=2)
