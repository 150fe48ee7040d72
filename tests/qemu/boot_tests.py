#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""QEMU boot tests: boot the real image through ./run.sh and assert on the serial log.

Each case runs ./run.sh qemu with its own log, checks run.sh's exit status and what the
firmware printed (header, TAP stream parsed with Debian's python3-tap, result lines,
error messages). Cases run two at a time. Prints one TAP-like line per case and ends with
'N passed, N failed'. Usage: tests/qemu/boot_tests.py [--vpmu] [-k SUBSTRING] [-j JOBS] [-v]; --vpmu runs the cases
on the emulated PMU (titles starting "vpmu") instead of the others.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

from tap.parser import Parser

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SUMMARY_RE = re.compile(r"^(\d+) passed, (\d+) failed, (\d+) skipped$")
ANSI_RE = re.compile(r"\x1b\[[0-9;=?]*[A-Za-z]")
ESP = "1048576"  # byte offset of the ESP in build/pmuboot.img (Makefile)


class Fail(Exception):
    pass


def expect(cond, what):
    if not cond:
        raise Fail(what)


def run(args, workdir, name, timeout=120, com2=False, keep_image=False):
    """Boots once; returns a dict with rc, log text (CR stripped), com2 text, image path."""
    log = os.path.join(workdir, name + ".log")
    cmd = [os.path.join(ROOT, "run.sh"), "qemu", "--log", log, "--timeout", str(timeout)]
    res = {"log_path": log}
    if com2:
        res["com2_path"] = os.path.join(workdir, name + ".com2")
        cmd += ["--com2", res["com2_path"]]
    if keep_image:
        res["image"] = os.path.join(workdir, name + ".img")
        cmd += ["--keep-image", res["image"]]
    cmd += args
    t0 = time.monotonic()
    p = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       stdin=subprocess.DEVNULL, text=True, errors="replace")
    res["seconds"] = time.monotonic() - t0
    res["rc"] = p.returncode
    res["out"] = p.stdout
    res["log"] = read(log)
    if com2:
        res["com2"] = read(res["com2_path"])
    return res


def read(path):
    try:
        with open(path, "rb") as f:
            text = f.read().decode("ascii", "replace")
    except FileNotFoundError:
        return ""
    # The firmware's own terminal (OVMF's serial console) adds escape sequences.
    return ANSI_RE.sub("", text).replace("\r", "")


def firmware_text(log):
    """The firmware's part of a log: from its header line on (OVMF prints before it)."""
    i = log.find("# pmuboot ")
    expect(i >= 0, "no '# pmuboot' header line in the log")
    return log[i:]


def parse_tap(text):
    """Parses the TAP stream strictly; returns (tests, summary tuple, header lines)."""
    text = firmware_text(text)
    lines = text.splitlines()
    expect("TAP version 13" in lines, "no 'TAP version 13' line")
    start = lines.index("TAP version 13")
    header = lines[:start]
    for h in header:
        expect(h.startswith("# "), "header line is not a '# ' comment: %r" % h)
    end = None
    for i in range(start, len(lines)):
        if SUMMARY_RE.match(lines[i]):
            end = i
            break
    expect(end is not None, "no closing 'N passed, N failed, N skipped' line")
    tests, plan, bail = [], None, False
    for line in Parser().parse_text("\n".join(lines[start:end]) + "\n"):
        cat = line.category
        if cat == "plan":
            plan = line.expected_tests
        elif cat == "test":
            tests.append(line)
        elif cat == "bail":
            bail = True
        elif cat not in ("version", "diagnostic"):
            raise Fail("unparseable TAP line: %r" % str(line))
    expect(plan is not None, "no plan line")
    if not bail:
        expect(plan == len(tests), "plan says %d tests, %d reported" % (plan, len(tests)))
    for i, t in enumerate(tests, 1):
        expect(t.number == i, "test %d is numbered %s" % (i, t.number))
        expect(re.match(r"^[a-z0-9_]+\.[A-Za-z0-9_.]+(@apic\d+)?$", t.description or ""),
               "test %d has no group.name: %r" % (i, t.description))
    passed = sum(1 for t in tests if t.ok and not t.skip)
    failed = sum(1 for t in tests if not t.ok)
    skipped = sum(1 for t in tests if t.skip)
    summary = tuple(int(x) for x in SUMMARY_RE.match(lines[end]).groups())
    expect(summary == (passed, failed, skipped),
           "closing line %r disagrees with the results (%d passed, %d failed, %d skipped)"
           % (lines[end], passed, failed, skipped))
    return tests, summary, header, text


def result_line(text, name):
    m = re.search(r"^(ok|not ok) \d+ %s( .*)?$" % re.escape(name), text, re.M)
    expect(m, "no result line for %s" % name)
    return m.group(0)


def header_value(header, key):
    for h in header:
        if h.startswith("# %s: " % key):
            return h[len(key) + 4:]
    raise Fail("header has no '# %s:' line" % key)


# ---------------------------------------------------------------- cases

def clean_run(r, what="run"):
    expect(r["rc"] == 0, "%s: run.sh exited %d, want 0\n%s" % (what, r["rc"], r["out"][-3000:]))
    tests, summary, header, text = parse_tap(r["log"])
    expect(summary[1] == 0, "%s: %d checks failed" % (what, summary[1]))
    return tests, summary, header, text


def case_default(wd):
    r = run([], wd, "default")
    tests, summary, header, text = clean_run(r)
    for key in ("cpu", "hypervisor", "tsc", "apic", "acpi", "memory", "pmu", "mode",
                "watchdog", "options", "exit"):
        header_value(header, key)
    names = {t.description for t in tests}
    for must in ("cpuid.sanity", "fault.ud", "fault.gp_noncanonical", "fault.gp_msr_reserved",
                 "fault.rdpmc_invalid", "apic.self_ipi", "watchdog.stuck_loop",
                 "system.unexpected_interrupts"):
        expect(must in names, "default run lacks %s" % must)
        expect(re.search(r"# measured=\S", result_line(text, must)),
               "%s reports no measured value" % must)
    expect(not any(n.startswith("selftest.") for n in names), "manual selftests ran by default")
    # qemu64 is AuthenticAMD: the skip must say so, not claim there is no PMU at all.
    line = result_line(text, "pmu.arch_version")
    expect(re.search(r"# SKIP AMD PMU: .*pmuboot does not yet program them", line),
           "pmu.arch_version does not skip naming the AMD PMU: %r" % line)
    expect(result_line(text, "system.unexpected_interrupts").startswith("ok "),
           "interrupts arrived without a handler")
    expect("isa-debug-exit" in header_value(header, "exit"), "isa-debug-exit not detected")
    return "%s in %.1f s" % (summary, r["seconds"])


def case_icount(wd):
    r = run(["--icount"], wd, "icount", timeout=180)
    tests, summary, header, text = clean_run(r)
    line = result_line(text, "icount.loop_delta")
    m = re.search(r"measured=(\d+) expected=(\d+) N=(\d+) count\(N\)=(\d+)$", line)
    expect(m, "icount.loop_delta line not understood: %r" % line)
    measured, expected, n, count_n = (int(x) for x in m.groups())
    expect(line.startswith("ok ") and measured == expected == 4 * n,
           "count(2N)-count(N) not exactly 4N: %r" % line)
    # loop4 (4N + 2) + the frame's CALL (1) + the frame's 6 instructions around it.
    over = count_n - (4 * n + 2 + 1)
    expect(over == 6, "frame overhead %d instructions, frame.S says 6: %r" % (over, line))
    for name in ["icount.repeatable", "icount.frame_overhead"] + \
            [t.description for t in tests if t.description.startswith("model.")]:
        expect(result_line(text, name).startswith("ok "), "%s did not pass" % name)
    mhz = float(re.match(r"([\d.]+) MHz", header_value(header, "tsc")).group(1))
    expect(abs(mhz - 1000.0) < 0.1,
           "under -icount shift=0 the TSC should run at 1 GHz: %s" % header_value(header, "tsc"))
    return "overhead %d instructions, %.1f s" % (over, r["seconds"])


def bad_option(opt, message):
    def case(wd):
        r = run(["--", opt], wd, "bad_" + re.sub(r"\W", "_", opt))
        expect(r["rc"] == 2, "run.sh exited %d, want 2 (bad options)" % r["rc"])
        text = firmware_text(r["log"])
        expect(re.search(r"^# error: (pmuboot.cfg line \d+: )?%s" % re.escape(message), text, re.M),
               "no '# error: %s' in the log:\n%s" % (message, text))
        expect("Bail out!" in text, "no 'Bail out!' line")
        expect(not re.search(r"^(ok|not ok) \d", text, re.M), "checks ran despite bad options")
        return message
    return case


def case_intel_no_pmu(wd):
    r = run(["--cpu", "Skylake-Client"], wd, "intel_no_pmu")
    tests, summary, header, text = clean_run(r, "Skylake-Client")
    expect(re.search(r"GenuineIntel.*model 0x5e", header_value(header, "cpu")), "not the Intel CPU")
    line = result_line(text, "pmu.arch_version")
    expect("# SKIP no architectural PMU: CPUID.0AH:EAX[7:0]=0" in line,
           "an Intel CPU without leaf 0AH must skip as having no PMU: %r" % line)
    return "%s in %.1f s" % (summary, r["seconds"])


# The uncore checks on Debian's QEMU: every one SKIPs, each for the reason this CPU gives
# (no write reaches an uncore discovery did not find: host test test_uncore proves that
# against the strict model; here the reasons must be the true ones). force-pmu must not
# push them to run.
UNCORE_CHECKS = 17


def uncore_skip(label, args, header_re, reasons):
    def case(wd):
        r = run(args + ["--", "force-pmu", "tests=uncore.*"], wd, "uncore_" + label)
        tests, summary, header, text = clean_run(r, "uncore " + label)
        unc = [h for h in header if h.startswith("# uncore: ")]
        expect(unc and re.search(header_re, unc[0]), "no '# uncore:' header matching %r: %s"
               % (header_re, unc))
        expect(len(tests) == UNCORE_CHECKS and all(t.description.startswith("uncore.")
                                                   for t in tests),
               "%d checks ran, want the %d uncore checks" % (len(tests), UNCORE_CHECKS))
        bad = []
        for t in tests:
            why = skip_reason(t)
            want = next(rs for cn, rs in reasons if re.match(cn, t.description))
            if not t.skip or not re.search(want, why):
                bad.append("%s: %s (want SKIP /%s/)" % (t.description, why or "ran", want))
        expect(not bad, "uncore checks not skipped for the right reason:\n" + "\n".join(bad))
        return "%d uncore checks skipped: %s" % (len(tests), unc[0][len("# uncore: "):][:90])
    return case


def case_on_exit_return_rejected(wd):
    # on-exit=return needs boot services: rejected, and the run must still end (shutdown,
    # the default action), not return to the boot manager and wait in its shell.
    r = run(["--timeout", "40", "--", "on-exit=return"], wd, "on_exit_return")
    expect(r["rc"] == 2, "run.sh exited %d, want 2 (rejected options; 4 is the hang)" % r["rc"])
    text = firmware_text(r["log"])
    expect(re.search(r"^# error: on-exit=return needs boot-services=keep", text, re.M),
           "no error line:\n" + text)
    expect(r["seconds"] < 30, "took %.1f s to end" % r["seconds"])
    return "ended with status 2 in %.1f s" % r["seconds"]


def case_size_1t(wd):
    # The range message says 4K..1T: 1T must parse (and then fail to allocate here).
    r = run(["--", "size=1T"], wd, "size_1t")
    expect(r["rc"] == 2, "run.sh exited %d, want 2" % r["rc"])
    text = firmware_text(r["log"])
    expect("unknown suffix" not in text, "size=1T refused as an unknown suffix")
    expect(re.search(r"^# error: size=1 TiB: cannot allocate it \(largest free block", text, re.M),
           "no allocation error for size=1T:\n" + text)
    return "parsed; allocation refused with the largest free block"


def case_mem_too_small(wd):
    t0 = time.monotonic()
    p = subprocess.run([os.path.join(ROOT, "run.sh"), "qemu", "--mem", "10"], cwd=ROOT,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    took = time.monotonic() - t0
    expect(p.returncode == 2, "--mem 10: run.sh exited %d, want 2" % p.returncode)
    expect("--mem 10: OVMF needs at least 64 MB" in p.stdout, "no message naming the minimum:\n"
           + p.stdout)
    expect(took < 20, "took %.1f s to refuse" % took)
    return "refused in %.1f s" % took


def case_force_pmu(wd):
    r = run(["--", "force-pmu", "bts", "tests=pmu.*,pebs.*,lbr.*,bts.*"], wd, "force_pmu")
    expect(r["rc"] == 1, "force-pmu without a PMU must fail the run: rc %d" % r["rc"])
    tests, summary, header, text = parse_tap(r["log"])
    # pmu.frame measures the frame through the TSC, not counters: it needs -icount.
    counters = [t for t in tests if t.description != "pmu.frame"]
    passing = [t.description for t in counters if t.ok]
    for group in ("pmu.", "pebs.", "lbr.", "bts."):
        expect(any(t.description.startswith(group) for t in counters),
               "no %s* check ran under force-pmu" % group)
    expect(len(counters) >= 10 and not passing,
           "every counter check must fail under force-pmu; these did not: %s" % passing)
    return "%d counter checks failed as they must" % summary[1]


def case_selftest_fail(wd):
    r = run(["--", "tests=selftest.fail,cpuid.*"], wd, "selftest_fail")
    expect(r["rc"] == 1, "a failing check must fail the run: rc %d" % r["rc"])
    tests, summary, header, text = parse_tap(r["log"])
    expect(summary == (1, 1, 0), "want 1 passed 1 failed, got %s" % (summary,))
    expect("measured=1 expected=2" in result_line(text, "selftest.fail"), "no measured/expected")
    return "ok"


def case_selftest_hang(wd):
    r = run(["--", "tests=selftest.hang,system.*"], wd, "selftest_hang")
    expect(r["rc"] == 1, "a hung check must fail the run: rc %d" % r["rc"])
    tests, summary, header, text = parse_tap(r["log"])
    line = result_line(text, "selftest.hang")
    m = re.search(r"^not ok \d+ selftest.hang # timeout: the watchdog stopped the check after (\d+) ms \(limit 200 ms\)", line)
    expect(m, "hang not reported as a watchdog timeout: %r" % line)
    expect(200 <= int(m.group(1)) < 5000, "stopped after %s ms, limit 200" % m.group(1))
    expect(result_line(text, "system.unexpected_interrupts").startswith("ok "),
           "the run did not go on cleanly after the hang")
    return line.split("# ")[1]


def case_selftest_fault(wd):
    r = run(["--", "tests=selftest.fault"], wd, "selftest_fault")
    expect(r["rc"] == 3, "an unexpected fault must end the run as fatal: rc %d" % r["rc"])
    text = firmware_text(r["log"])
    expect(re.search(r"^not ok 1 selftest.fault # fatal: unexpected exception #UD invalid opcode \(vector 6\) at RIP 0x[0-9a-f]+$", text, re.M),
           "no fatal result line:\n" + text)
    for reg in ("RIP ", "RSP ", "rax ", "r15 ", "CR0 ", "error code"):
        expect(re.search(r"^# .*%s" % reg, text, re.M), "register dump lacks %r" % reg)
    expect("Bail out!" in text, "no Bail out! line")
    parse_tap(r["log"])
    return "ok"


def case_list(wd):
    r = run(["--", "list"], wd, "list")
    expect(r["rc"] == 0, "list: rc %d" % r["rc"])
    text = firmware_text(r["log"])
    names = re.findall(r"^([a-z0-9_]+\.[a-z0-9_]+) ", text, re.M)
    for must in ("cpuid.sanity", "selftest.hang", "icount.loop_delta", "system.unexpected_interrupts"):
        expect(must in names, "list lacks %s" % must)
    # The Nehalem load-source chase needs far more than the default 10 s watchdog.
    m = re.search(r"^pmu\.nehalem\.load_sources +\[limit (\d+) ms\]", text, re.M)
    expect(m and int(m.group(1)) >= 60000, "pmu.nehalem.load_sources has no long limit")
    expect(not re.search(r"^(ok|not ok) \d", text, re.M), "list ran checks")
    return "%d checks listed" % len(names)


def boot_variant(args, header_check=None):
    def case(wd):
        r = run(args, wd, "variant_" + re.sub(r"\W+", "_", " ".join(args)))
        tests, summary, header, text = clean_run(r, " ".join(args))
        if header_check:
            header_check(header)
        return "%s in %.1f s" % (summary, r["seconds"])
    return case


def want_header(key, pattern):
    def check(header):
        v = header_value(header, key)
        expect(re.search(pattern, v), "header %s: %r does not match %r" % (key, v, pattern))
    return check


PER_CPU_GROUPS = ("pmu.", "pebs.", "lbr.", "bts.", "system.", "selftest.")


def split_apic(name):
    """'pmu.fixed.0@apic2' -> ('pmu.fixed.0', 2); untagged names give None."""
    m = re.match(r"^(.*)@apic(\d+)$", name)
    return (m.group(1), int(m.group(2))) if m else (name, None)


def check_every_cpu(tests, header, ncpus):
    """Every CPU started and ran the same per-CPU checks, each tagged with its APIC ID, and
    its unexpected-interrupt check passed; the rest ran once, untagged. Returns the start-up
    times in ms."""
    smp = header_value(header, "smp")
    expect(re.match(r"%d CPU\(s\) known \(MADT %d\), %d AP\(s\) started" % (ncpus, ncpus, ncpus - 1),
                    smp), "header smp: %r" % smp)
    starts = []
    for i in range(1, ncpus):
        line = header_value(header, "cpu %d" % i)
        m = re.match(r"APIC ID %d, started in ([\d.]+) ms" % i, line)
        expect(m, "cpu %d: %r" % (i, line))
        starts.append(float(m.group(1)))
    by_cpu = {}
    for t in tests:
        base, apic = split_apic(t.description)
        per_cpu = base.startswith(PER_CPU_GROUPS)
        expect(per_cpu == (apic is not None), "%s: tagged %s, per-CPU %s" % (t.description, apic, per_cpu))
        if per_cpu:
            by_cpu.setdefault(apic, []).append(base)
    expect(sorted(by_cpu) == list(range(ncpus)), "per-CPU checks ran on APIC IDs %s" % sorted(by_cpu))
    for apic in range(1, ncpus):
        expect(by_cpu[apic] == by_cpu[0], "APIC %d ran other checks than APIC 0" % apic)
    ok = {t.description for t in tests if t.ok and not t.skip}
    for apic in range(ncpus):
        expect("system.unexpected_interrupts@apic%d" % apic in ok,
               "system.unexpected_interrupts@apic%d did not pass" % apic)
    return starts


def case_smp4(wd):
    r = run(["--smp", "4"], wd, "smp4")
    tests, summary, header, text = clean_run(r)
    starts = check_every_cpu(tests, header, 4)
    return "%s; APs started in %s ms; %.1f s" % (summary, "/".join("%.1f" % x for x in starts),
                                                  r["seconds"])


def case_smp_absent_cpus(wd):
    # maxcpus: QEMU lists the absent CPUs in no usable form: nothing is sent to them.
    r = run(["--smp", "2,maxcpus=4", "--", "tests=system.*"], wd, "smp_absent")
    tests, summary, header, text = clean_run(r)
    check_every_cpu(tests, header, 2)
    return "%s in %.1f s" % (summary, r["seconds"])


def case_smp_selftests(wd):
    """On CPU 2 alone: a failing, a hung, a faulting and an interrupts-off check each
    reported, the run going on to the end."""
    r = run(["--smp", "4", "--", "cpus=2", "tests=selftest.*,system.*", "watchdog=300"], wd,
            "smp_selftests")
    expect(r["rc"] == 1, "run.sh exited %d, want 1 (checks failed)" % r["rc"])
    tests, summary, header, text = parse_tap(r["log"])
    expect(summary == (0, 4, 1), "want 0 passed 4 failed 1 skipped, got %s" % (summary,))
    expect(re.search(r"^# cpu 1: APIC ID 1, not chosen", text, re.M), "CPU 1 was started")
    want = {
        "selftest.fail@apic2": r"measured=1 expected=2",
        "selftest.hang@apic2": r"timeout: the watchdog stopped the check after \d+ ms \(limit 200 ms\)",
        "selftest.fault@apic2": r"fatal: unexpected exception #UD .* on CPU 2 \(APIC ID 2\); the CPU goes on",
        "selftest.hang_irqs_off@apic2": r"timeout: CPU 2 \(APIC ID 2\): the call did not end in time \(the CPU was stopped\)",
    }
    for name, pat in want.items():
        line = result_line(text, name)
        expect(line.startswith("not ok") and re.search(pat, line), "%s: %r" % (name, line))
    expect(re.search(r"^# CPU 2 \(APIC ID 2\): unexpected exception #UD", text, re.M),
           "no register report from CPU 2")
    # The CPU lost with interrupts off is stopped: what ran after it on CPU 2 says so.
    line = result_line(text, "system.unexpected_interrupts@apic2")
    expect(re.search(r"# SKIP CPU 2 \(APIC ID 2\) was lost at selftest.hang_irqs_off \(a call did "
                     r"not end within \d+ ms: stopped with INIT\)", line), line)
    return "4 failures reported on CPU 2, %.1f s" % r["seconds"]


def case_smp_keep(wd):
    """Boot services kept: the AP runs its checks through EFI_MP_SERVICES_PROTOCOL, and a
    fault there is reported while the run goes on."""
    r = run(["--smp", "2", "--", "boot-services=keep", "on-exit=shutdown", "cpus=1",
             "tests=system.*,selftest.fail,selftest.fault"], wd, "smp_keep")
    expect(r["rc"] == 1, "run.sh exited %d, want 1 (checks failed)" % r["rc"])
    tests, summary, header, text = parse_tap(r["log"])
    smp = header_value(header, "smp")
    expect(re.search(r"1 AP\(s\) started \(firmware MP services\)", smp), "header smp: %r" % smp)
    expect(summary == (1, 2, 0), "want 1 passed 2 failed, got %s" % (summary,))
    line = result_line(text, "selftest.fault@apic1")
    expect(re.search(r"fatal: unexpected exception #UD .* on CPU 1 \(APIC ID 1\); the CPU goes on",
                     line), line)
    expect(result_line(text, "system.unexpected_interrupts@apic1").startswith("ok "),
           "the AP's unexpected-interrupt check did not pass")
    return "%s in %.1f s" % (summary, r["seconds"])


def case_options_echo(wd):
    r = run(["--", "reps=3", "size=8M", "watchdog=5000", "tests=cpuid.*,fault.*"], wd, "options_echo")
    tests, summary, header, text = clean_run(r)
    opts = header_value(header, "options")
    for o in ("tests=cpuid.*,fault.*", "reps=3", "size=8M", "watchdog=5000"):
        expect(o in opts, "effective options %r lack %s" % (opts, o))
    expect("buffer 8 MiB" in header_value(header, "memory"), "size=8M not honoured")
    expect(all(t.description.startswith(("cpuid.", "fault.")) for t in tests), "tests= not honoured")
    return opts


def case_keep(wd):
    r = run(["--", "boot-services=keep", "on-exit=shutdown", "serial=0x2F8", "tests=cpuid.*,fault.*,apic.*"],
            wd, "keep", com2=True, keep_image=True)
    expect(r["rc"] == 0, "keep mode: rc %d\n%s" % (r["rc"], r["out"][-2000:]))
    # OVMF's console reaches both serial ports: pmuboot must notice and not write the UART
    # itself as well, or every line would appear twice.
    for port, log in (("COM1", r["log"]), ("COM2", r["com2"])):
        tests, summary, header, text = parse_tap(log)
        expect(summary[1] == 0 and summary[0] >= 5, "keep mode results on %s: %s" % (port, summary))
    expect("boot services kept" in header_value(header, "mode"), "mode line does not say kept")
    # The results file on the ESP holds the same text.
    out = os.path.join(wd, "keep.results")
    subprocess.run(["mcopy", "-o", "-i", r["image"] + "@@" + ESP, "::/EFI/BOOT/pmuboot.log", out],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    results = read(out)
    expect(parse_tap(results)[1] == summary, "results file summary differs")
    expect(results.strip() == firmware_text(r["com2"]).strip(),
           "results file differs from the serial output")
    return "%s; results file matches serial" % (summary,)


def case_shell_args(wd):
    r = run(["--shell", "tests=cpuid.* reps=7", "--", "reps=5", "watchdog=3000"], wd, "shell_args")
    tests, summary, header, text = clean_run(r, "shell")
    opts = header_value(header, "options")
    expect("reps=7" in opts and "tests=cpuid.*" in opts, "load options did not win: %r" % opts)
    expect("watchdog=3000" in opts, "pmuboot.cfg options not applied: %r" % opts)
    expect("shell, 2 argument(s)" in header_value(header, "config"), "load options not reported")
    return opts


def case_shell_keep_return(wd):
    r = run(["--shell", "boot-services=keep tests=fault.*"], wd, "shell_keep")
    expect(r["rc"] == 0, "keep + return: rc %d\n%s" % (r["rc"], r["out"][-2000:]))
    tests, summary, header, text = parse_tap(r["log"])
    expect(summary[1] == 0 and summary[0] == 4, "keep mode from the shell: %s" % (summary,))
    expect(re.search(r"pmuboot returned 0x0\b", r["log"]), "pmuboot did not return to the shell")
    return "returned EFI_SUCCESS to the shell"


def case_shell_bad_arg(wd):
    r = run(["--shell", "reps=abc"], wd, "shell_bad")
    expect(r["rc"] == 2, "bad shell argument: rc %d" % r["rc"])
    text = firmware_text(r["log"])
    expect("# error: command line: reps=abc: not a number" in text, "no error line:\n" + text)
    expect(re.search(r"pmuboot returned 0x(8000000000000002|2)\b", r["log"]),
           "pmuboot did not return EFI_INVALID_PARAMETER to the shell")
    return "EFI_INVALID_PARAMETER"


def case_no_uart(wd):
    r = run(["--", "serial=0x3E8", "tests=cpuid.*"], wd, "no_uart")
    expect(r["rc"] == 0, "no UART: rc %d\n%s" % (r["rc"], r["out"][-2000:]))
    tests, summary, header, text = parse_tap(r["log"])
    expect(summary == (1, 0, 0), "no UART: %s" % (summary,))
    expect("no UART answers at 0x3E8, so boot services were kept" in header_value(header, "mode"),
           "the header does not say why boot services were kept")
    expect("on-exit=shutdown" in header_value(header, "options"), "on-exit changed")
    return "results reached the UEFI console"


def case_oracle(wd):
    out = os.path.join(wd, "oracle.txt")
    r = run(["--oracle", "--oracle-out", out], wd, "oracle", timeout=240)
    tests, summary, header, text = clean_run(r, "oracle")
    m = re.search(r"^oracle: (\d+) regions predicted, (\d+) observed, 0 differences, 0 plugin errors",
                  r["out"], re.M)
    expect(m, "oracle comparison did not come out clean:\n" + r["out"][-3000:])
    expect(int(m.group(1)) == int(m.group(2)) > 0, "regions predicted/observed: %s" % m.group(0))
    names = {t.description for t in tests}
    for model in ("loop4", "add_chain", "imul_chain", "div_loop", "chase_line_4k",
                  "chase_line_256k", "chase_line_buffer", "chase_page_256k", "chase_page_buffer",
                  "branch_always", "branch_never", "branch_alternating", "branch_period3",
                  "branch_period17", "branch_period64", "branch_lfsr", "store_nt", "store_ntdq",
                  "store_plain", "bigcode", "iret_loop", "cpuid_loop"):
        expect("model." + model in names, "model.%s did not run under the oracle" % model)
    return "%s regions exact in %.1f s" % (m.group(1), r["seconds"])


def case_oracle_xcore(wd):
    """The cross-core kernels under the oracle with two vCPUs: each side's model exact on
    the vCPU that ran it (predictions and observations matched by vcpu=)."""
    out = os.path.join(wd, "oracle_xcore.txt")
    r = run(["--oracle", "--oracle-out", out, "--smp", "2", "--", "tests=xcore.*"], wd,
            "oracle_xcore", timeout=240)
    tests, summary, header, text = clean_run(r, "oracle -smp 2")
    expect(summary[0] == 3, "want the three xcore checks passed, got %s" % (summary,))
    m = re.search(r"^oracle: (\d+) regions predicted, (\d+) observed, 0 differences, 0 plugin errors",
                  r["out"], re.M)
    expect(m, "oracle comparison did not come out clean:\n" + r["out"][-3000:])
    vcpus = set(re.findall(r"^# oracle: region id=\d+ seq=\d+ vcpu=(\d+) kernel=(?:pingpong|"
                           r"produce|consume|false_share)", text, re.M))
    expect(vcpus == {"0", "1"}, "cross-core regions predicted on vCPUs %s, want 0 and 1" % vcpus)
    return "%s regions exact on vCPUs 0 and 1 in %.1f s" % (m.group(1), r["seconds"])


def oracle_negative(fault, quantity):
    def case(wd):
        out = os.path.join(wd, "oracle_%s.txt" % fault)
        r = run(["--oracle", "--oracle-out", out, "--", "oracle-fault=" + fault, "tests=model.*"],
                wd, "oracle_" + fault, timeout=240)
        expect(r["rc"] == 1, "a wrong model (%s) must fail the oracle run: rc %d" % (fault, r["rc"]))
        m = re.search(r"^MISMATCH kernel=(\S+) n=\d+ region=\d+ seq=\d+: (%s)\S* predicted=\S+ observed=\S+$"
                      % re.escape(quantity), r["out"], re.M)
        expect(m, "no MISMATCH line naming kernel, %s, predicted and observed:\n%s"
               % (quantity, r["out"][-3000:]))
        return m.group(0)
    return case


# ---------------------------------------------------------------- the emulated PMU

def skip_reason(t):
    text = t.directive.text if t.directive else ""
    return re.sub(r"^SKIP\s*", "", text)


def case_vpmu_off_like_debian(wd):
    """The patched binary without pmu=on: every check ends as on Debian's binary."""
    a = run(["--cpu", "Skylake-Client"], wd, "debian_skl")
    b = run(["--vpmu", "--cpu", "Skylake-Client,pmu=off"], wd, "vpmu_off_skl")
    ta, sa, ha, _ = clean_run(a, "Debian's qemu")
    tb, sb, hb, _ = clean_run(b, "patched qemu, pmu=off")
    res = lambda ts: [(t.description, t.ok, t.skip, skip_reason(t) if t.skip else "") for t in ts]
    expect(res(ta) == res(tb), "results differ from Debian's binary:\n%s" % "\n".join(
        "%s / %s" % (x, y) for x, y in zip(res(ta), res(tb)) if x != y))
    for key in ("cpu", "pmu"):
        va = [h for h in ha if h.startswith("# %s: " % key)]
        vb = [h for h in hb if h.startswith("# %s: " % key)]
        expect(va == vb, "header '%s' differs: %s / %s" % (key, va, vb))
    return "%d results as on Debian's binary" % len(ta)


# Every group but the seed-event checks (events.*, hundreds of events measured on their own
# kernels; the vpmu events cases run them): for the emulated-model and erratum boots.
NO_EVENTS = "tests=" + ",".join(g + ".*" for g in (
    "cpuid", "fault", "apic", "watchdog", "user", "icount", "model", "pmu", "xcore", "pebs",
    "lbr", "bts", "uncore", "system"))


def vpmu_model(label, cpu, allowed, version, smp=1):
    """pmuboot on an emulated model: nothing fails, every counter check runs, or SKIPs for
    a reason this model explains (allowed: (check regex, reason regex) pairs). With smp > 1
    on every CPU, each with its own emulated PMU."""
    def case(wd):
        r = run(["--vpmu", "--cpu", cpu, "--smp", str(smp), "--timeout", "900", "--", "bts",
                 NO_EVENTS], wd, "vpmu_" + label, timeout=900)
        tests, summary, header, text = clean_run(r, "vpmu " + cpu)
        expect(re.search(r"^version %d," % version, header_value(header, "pmu")),
               "header does not show PMU version %d: %r" % (version, header_value(header, "pmu")))
        if smp > 1:
            check_every_cpu(tests, header, smp)
        bad = []
        for t in tests:
            n = split_apic(t.description)[0]
            if not t.skip or not n.startswith(COUNTER_GROUPS):
                continue
            why = skip_reason(t)
            if not any(re.match(cn, n) and re.search(rs, why) for cn, rs in allowed):
                bad.append("%s: %s" % (t.description, why))
        expect(not bad, "counter checks skipped without a reason this model explains:\n%s"
               % "\n".join(bad))
        ran = sum(1 for t in tests if not t.skip and t.description.startswith(COUNTER_GROUPS))
        return "%s; %d counter, model, PEBS, LBR and BTS checks ran%s in %.1f s" % (
            summary, ran, " on %d CPUs" % smp if smp > 1 else "", r["seconds"])
    return case


# The groups whose SKIPs must each be explained by the model.
COUNTER_GROUPS = ("pmu.", "model.", "pebs.", "lbr.", "bts.")
NOT_NEHALEM = (r"pmu\.nehalem\.", r"Nehalem/Westmere events; this is ")
NO_ADAPTIVE = (r"pebs\.(adaptive|fixed)$", r"PEBS_BASELINE\[14\]=0")
NO_FRONTEND = (r"pebs\.frontend\.", r"Skylake's and later big cores")
NHM_CALL_FILTER = (r"lbr\.filter\.(no_jumps|calls_only|near_rel_jmp|near_ind_jmp)$",
                   r"nhm_lbr_sel_map")
V1_GLOBAL = (r"(pebs|lbr)\.", r"PMU version 1|needs GLOBAL_CTRL")
# The emulation gives PEBS to version 2 and later only (and says so in IA32_MISC_ENABLE).
V1_NO_PEBS = (r"pebs\.", r"PEBS_UNAVAILABLE\[12\]=1")
NO_SLOTS_GP = (r"pmu\.arch\.topdown_slots\.", r"CPUID\.0AH:EBX\[7\]=1 or beyond EBX length")
NOT_V4 = (r"pmu\.status_set_inuse$", r"need PMU version 4")
NOT_SKL = (r"pmu\.cache_levels$", r"as on Skylake; this is ")
V1_FRAME = (r"(pmu|model)\.", r"PMU version 1: no IA32_PERF_GLOBAL_CTRL")
V1_ICOUNT = (r"(pmu\.frame|model\.)", r"option icount not set")

VPMU_MODELS = [
    ("nehalem", "Nehalem", 3, [NOT_V4, NOT_SKL, NO_SLOTS_GP, NO_ADAPTIVE, NO_FRONTEND,
                               NHM_CALL_FILTER]),
    ("skylake", "Skylake-Client", 4, [NOT_NEHALEM, NO_SLOTS_GP, NO_ADAPTIVE]),
    # QEMU's Icelake-Server reports model 134 (0x86, Jacobsville: pmuboot and
    # kvm-unit-tests then expect erratum SRF7); model 106 (0x6A) is Ice Lake-SP.
    ("icelake", "Icelake-Server,model=106", 5, [NOT_NEHALEM]),
    ("v2", "Skylake-Client,pmu-version=2", 2, [NOT_NEHALEM, NOT_V4, NO_SLOTS_GP, NO_ADAPTIVE]),
    ("v1", "Skylake-Client,pmu-version=1", 1, [NOT_NEHALEM, NOT_V4, NO_SLOTS_GP, V1_FRAME, V1_ICOUNT,
                                               NO_ADAPTIVE, V1_GLOBAL, V1_NO_PEBS]),
]


def case_vpmu_oracle(wd):
    """Model, oracle plugin and emulated PMU agree on every region the PMU counted."""
    out = os.path.join(wd, "vpmu_oracle.txt")
    r = run(["--vpmu", "--oracle", "--oracle-out", out, "--timeout", "900", "--", NO_EVENTS],
            wd, "vpmu_oracle", timeout=900)
    tests, summary, header, text = clean_run(r, "vpmu oracle")
    m = re.search(r"^oracle: (\d+) regions predicted, (\d+) observed, 0 differences, 0 plugin "
                  r"errors", r["out"], re.M)
    expect(m, "oracle comparison not clean:\n" + r["out"][-3000:])
    p = re.search(r"^oracle: (\d+) regions counted by the PMU, instructions and branches as "
                  r"observed \(the frame's WRMSRs counted: (\d) of 2\)", r["out"], re.M)
    expect(p, "no three-way agreement line:\n" + r["out"][-3000:])
    models = [t for t in tests if t.description.startswith("model.")]
    expect(len(models) >= 20 and all(t.ok and not t.skip for t in models),
           "model checks did not all run on the PMU")
    return "%s regions, %s counted by the PMU, WRMSRs counted %s" % (m.group(1), p.group(1),
                                                                     p.group(2))


# Each injected erratum of the emulated PMU (tests/qemu/vpmu/README.md) on Skylake-Client:
# the run must fail, every check in `must` (regexes) must be among the failures, and every
# failure must match `allowed` (the checks that can see that kind of bug, nothing else).
ERRATA = [
    # name, must fail, may also fail
    ("srf7", [r"model\.iret_loop"], r"model\.iret_loop|pmu\.pmi_exact"),
    ("w146", [r"model\.cpuid_loop"], r"model\.cpuid_loop"),
    ("srf7-irq", [r"pmu\.pmi_exact"], r"pmu\.pmi"),
    ("xen-pmi", [r"pmu\.pmi_exact"], r"pmu\.pmi|lbr\.freeze_on_pmi"),
    ("amd-1023", [r"pmu\.freeze_on_pmi", r"pmu\.pmi_exact"], r"pmu\.(pmi|freeze_on_pmi)"),
    # PMI-delivery errata reach the uncore's PMI too: it comes through the same LVT entry.
    ("kvm-double-pmi", [r"pmu\.pmi\.gp0", r"pmu\.pmi_nmi"],
     r"pmu\.pmi|(pebs|bts)\.threshold|uncore\.skl\.(pmi|frz_on_pmi)"),
    ("amd-nmi-latency", [r"pmu\.pmi_exact|pmu\.pmi_short_period"], r"pmu\.(pmi|freeze_on_pmi)"),
    ("skl-zero-status", [r"pmu\.overflow\.gp0", r"pmu\.pmi\.gp0"],
     r"pmu\.(overflow|pmi|freeze_on_pmi)"),
    ("status-set-ignored", [r"pmu\.status_set_inuse"], r"pmu\.status_set_inuse"),
    ("kvm-lvtpc-mask", [r"pmu\.pmi\.gp0"], r"pmu\.pmi\.|(pebs|bts)\.threshold|uncore\.skl\.pmi"),
    ("kvm-no-freeze", [r"pmu\.freeze_on_pmi"],
     r"pmu\.freeze_on_pmi|pebs\.threshold|lbr\.(freeze_on_pmi|basic_blocks)"),
    ("global-ctrl-nogate", [r"pmu\.global_gates"], r"(pmu|model|pebs|lbr)\."),
    ("nhm-short-period", [r"pmu\.pmi_short_period"], r"pmu\.pmi_short_period"),
    ("aj67", [r"pmu\.usr_os"], r"pmu\.(usr_os|pmi_exact)"),
    ("noise", [r"model\.|pmu\.frame"], r"(pmu|model|pebs|lbr)\."),
    ("w145", [r"pmu\.fixed\.fixed2"], r"pmu\.(fixed\.fixed2|arch\.ref_cycles\.)"),
    ("fixed1-insn", [r"pmu\.fixed\.fixed1"], r"pmu\.fixed\.fixed1"),
    ("cmask-ignored", [r"pmu\.cmask_inv_edge"], r"pmu\.cmask_inv_edge"),
    ("edge-ignored", [r"pmu\.cmask_inv_edge"], r"pmu\.cmask_inv_edge"),
    ("kvm-no-truncate", [r"pmu\.width"], r"pmu\.width"),
    ("legacy-zero-extend", [r"pmu\.width"], r"pmu\.width"),
    ("wrap40", [r"pmu\.width", r"pmu\.overflow\.gp0"], r"(pmu|pebs|lbr)\."),
    ("kvm-running-wrmsr", [r"pmu\.running_write"], r"pmu\.running_write"),
    ("rdpmc-stale", [r"pmu\.frame", r"model\."], r"(pmu|model|pebs|lbr)\."),
    ("tfa-pmc3", [r"pmu\.arch\.instructions\.gp3", r"pmu\.overflow\.gp3"], r"(pmu|pebs)\..*\.gp3$"),
    ("kvm-reset-ctrl", [r"pmu\.reset_state"], r"pmu\.reset_state"),
    ("kut-evlen", [r"pmu\.arch\.topdown_slots\.gp0"], r"pmu\.arch\.topdown_slots\."),
    # LBR and BTS (kinds 5 and 12)
    ("lbr-from-to-swap", [r"lbr\.stack\.loop4"], r"lbr\.|bts\.records|pebs\.adaptive"),
    ("lbr-tos-skew", [r"lbr\.stack\.loop4"], r"lbr\.|bts\.records"),
    ("lbr-no-wrap", [r"lbr\.tos_wrap"], r"lbr\.|bts\.records"),
    ("nhm-lbr-call-filter", [r"lbr\.filter\.no_jumps"], r"lbr\.filter\.(no_jumps|calls_only)"),
    ("lbr-mispred-stuck", [r"lbr\.mispredict"], r"lbr\.mispredict"),
    ("am94", [r"lbr\.freeze_on_pmi"], r"lbr\.(freeze_on_pmi|basic_blocks)"),
    ("bts-past-max", [r"bts\.full"], r"bts\."),
    # PEBS (kinds 3, 4, 7 and 11)
    # Taken one instruction late the record is a consistent later state: a load-latency
    # record then describes an instruction that is not the load (no data address).
    ("core2-pebs-trap-ip", [r"pebs\.load_latency\.(l1|dram)"], r"pebs\."),
    ("pebs-past-max", [r"pebs\.buffer_full"], r"pebs\."),
    ("aj68", [r"pebs\.threshold"], r"pebs\."),
    ("pebs-pmi-lost", [r"pebs\.threshold"], r"pebs\."),
    ("aj69", [r"pebs\.threshold"], r"pebs\.threshold"),
    ("pebs-zero-status", [r"pebs\.precise\.gp0"], r"pebs\."),
    ("pebs-no-reload", [r"pebs\.precise\.gp0"], r"pebs\."),
    ("kvm-pebs-lbr-leak", [r"pebs\.adaptive"], r"pebs\.adaptive"),
    ("pebs-ll-threshold", [r"pebs\.load_latency\.above_threshold"], r"pebs\.load_latency\."),
    # Uncore (kinds 9 and 13)
    ("unc-cbo-40bit", [r"uncore\.skl\.counter_width"], r"uncore\.skl\.counter_width"),
    ("unc-status-not-w1c", [r"uncore\.skl\.status_w1c"],
     r"uncore\.skl\.(status_w1c|pmi|pmi_other_core|frz_on_pmi|counter_width)"),
    ("unc-frz-ignored", [r"uncore\.skl\.frz_on_pmi"], r"uncore\.skl\.frz_on_pmi"),
    ("unc-pmi-wrong-core", [r"uncore\.skl\.pmi$", r"uncore\.skl\.pmi_other_core"],
     r"uncore\.skl\.(pmi|frz_on_pmi)"),
    ("imc-32byte-reads", [r"uncore\.skl\.imc_reads"], r"uncore\.skl\.imc_reads"),
    # One CBo of two unseen: the HITM sum halves; the lookups' lower bound (N/2, for a
    # real L2 that misses 3/4 of a random chase) still holds for the half the emulated
    # L2, which misses every step, sends to the CBo still seen.
    ("unc-cbo-count-off-by-one", [r"uncore\.skl\.xsnp_hitm"],
     r"uncore\.skl\.(cbo_lookup|xsnp_hitm)"),
    ("unc-gq-occupancy-not-empty", [r"uncore\.nhm\.occupancy_empty"],
     r"uncore\.nhm\.(occupancy_empty|gq_alloc)"),
]
ERRATUM_CPU = "Skylake-Client"
# Errata of features Skylake's PEBS lacks (adaptive records) run on Ice Lake-SP; Nehalem's
# uncore on Nehalem.
ERRATUM_CPUS = {"kvm-pebs-lbr-leak": "Icelake-Server,model=106",
                "unc-gq-occupancy-not-empty": "Nehalem"}
# Errata that need a second CPU to show (a PMI sent to the wrong core; a CBo missed by
# software that finds one too few of two).
ERRATUM_SMP = {"unc-pmi-wrong-core": 2, "unc-cbo-count-off-by-one": 2}


def vpmu_erratum(name, must, allowed):
    """The run with one injected erratum fails, and in the checks meant to see it."""
    def case(wd):
        r = run(["--vpmu", "--cpu", ERRATUM_CPUS.get(name, ERRATUM_CPU), "--erratum", name,
                 "--smp", str(ERRATUM_SMP.get(name, 1)), "--timeout", "900", "--", "bts",
                 NO_EVENTS], wd,
                "erratum_" + name, timeout=900)
        expect(r["rc"] != 0, "erratum %s: the run passed (run.sh exited 0)" % name)
        tests, summary, header, text = parse_tap(r["log"])
        failed = [split_apic(t.description)[0] for t in tests if not t.ok and not t.skip]
        missing = [m for m in must if not any(re.match(m, f) for f in failed)]
        stray = [f for f in failed if not re.match(allowed, f)]
        expect(failed, "erratum %s: run.sh failed but no check did (status %d)" % (name, r["rc"]))
        expect(not missing, "erratum %s: no failing check matches %s; failed: %s"
               % (name, ", ".join(missing), ", ".join(failed)))
        expect(not stray, "erratum %s: checks that should not see it failed: %s"
               % (name, ", ".join(stray)))
        return "caught by %d check(s): %s" % (len(failed), ", ".join(failed[:4]) +
                                             (", ..." if len(failed) > 4 else ""))
    return case


def vpmu_events(model, cpu, smp=2):
    """The seed-event checks of one model on the emulated CPU: every check of an event the
    emulated PMU models (build/vpmu/modelled-events-<model>.txt, written by its build) passes;
    how the others fared is reported."""
    def case(wd):
        path = os.path.join(ROOT, "build", "vpmu", "modelled-events-%s.txt" % model)
        expect(os.path.exists(path), "%s is missing: the emulated PMU's build writes the list "
               "of the events it models (make vpmu)" % path)
        modelled = set()
        for line in read(path).splitlines():
            line = line.split("#", 1)[0].strip()
            if line:
                modelled.add(line)
        r = run(["--vpmu", "--cpu", cpu, "--smp", str(smp), "--timeout", "900", "--",
                 "tests=events.%s.*" % model,
                 # the uncore rows' evict kernels need an LLC-sized region beside the chase
                 "size=64M"], wd, "vpmu_events_" + model, timeout=900)
        tests, summary, header, text = parse_tap(r["log"])
        expect(tests, "no results:\n" + r["out"][-2000:])
        prefix = "events.%s." % model
        seen, bad, skipped, rest = set(), [], [], {"pass": 0, "fail": 0, "skip": 0}
        for t in tests:
            name = t.description.split(" ")[0]
            expect(name.startswith(prefix), "a check outside events.%s ran: %s" % (model, name))
            event = name[len(prefix):]
            seen.add(event)
            if event in modelled:
                if not t.ok:
                    bad.append(t.description)
                elif t.skip:
                    skipped.append("%s: %s" % (event, skip_reason(t)))
            else:
                rest["skip" if t.skip else "pass" if t.ok else "fail"] += 1
        unknown = sorted(modelled - seen)
        expect(not unknown, "%s names events the table does not have: %s" % (path, unknown))
        expect(not bad, "%d check(s) of modelled events failed:\n%s" % (len(bad), "\n".join(bad)))
        return ("%d modelled events: %d passed, %d skipped%s; the other %d: %d passed, %d failed, "
                "%d skipped; %.1f s" % (len(modelled), len(modelled) - len(skipped), len(skipped),
                                        " (%s)" % "; ".join(skipped[:3]) if skipped else "",
                                        sum(rest.values()), rest["pass"], rest["fail"],
                                        rest["skip"], r["seconds"]))
    return case


def known_errata():
    """The names the emulated QEMU knows (it lists them for an unknown one)."""
    qemu = os.path.join(ROOT, "build", "vpmu", "qemu-system-x86_64")
    p = subprocess.run([qemu, "-accel", "tcg", "-display", "none", "-nodefaults", "-cpu",
                        "%s,pmu=on,pmu-erratum=?" % ERRATUM_CPU], capture_output=True, text=True,
                       timeout=60)
    m = re.search(r"known: (.*)", p.stderr)
    return m.group(1).split(", ") if m else []


def case_vpmu_bad_property(wd):
    """An unknown erratum or an out-of-range PMU property: QEMU names it, run.sh exits 2."""
    out = []
    for args, want in ((["--erratum", "nosuch"], "pmu-erratum=nosuch: unknown erratum"),
                       (["--cpu", "Skylake-Client,pmu-version=9"], "pmu-version=9: must be 1..5")):
        r = run(["--vpmu"] + args, wd, "vpmu_bad_%d" % len(out), timeout=60)
        expect(r["rc"] == 2, "%s: run.sh exited %d, want 2\n%s" % (args, r["rc"], r["out"][-1500:]))
        expect(want in r["out"], "%s: no '%s' in the output:\n%s" % (args, want, r["out"][-1500:]))
        out.append(want)
    return "; ".join(out)


def case_errata_table_complete(wd):
    """Every erratum the emulated PMU can inject has a row in ERRATA, and no row is stale."""
    known = known_errata()
    expect(known, "the emulated QEMU did not list its errata")
    rows = [e[0] for e in ERRATA]
    expect(sorted(known) == sorted(rows), "errata in QEMU but not in the table: %s; in the table "
           "but not in QEMU: %s" % (sorted(set(known) - set(rows)), sorted(set(rows) - set(known))))
    return "%d errata, each with a row" % len(known)


CASES = [
    ("default run: header, parseable TAP, no failure", case_default),
    ("icount: count(2N)-count(N)=4N exactly", case_icount),
    ("oracle: every region's model matches what QEMU executed", case_oracle),
    ("oracle: one load too few is caught", oracle_negative("loads", "loads")),
    ("oracle -smp 2: the cross-core kernels' models exact on both vCPUs", case_oracle_xcore),
    ("oracle: a branch target off by one is caught", oracle_negative("lbr", "lbr")),
    ("bad option: unknown", bad_option("frobnicate=1", "frobnicate=1: unknown option")),
    ("bad option: malformed number", bad_option("reps=12x", "reps=12x:")),
    ("bad option: out of range", bad_option("reps=0", "reps=0: out of range")),
    ("bad option: glob matching nothing", bad_option("tests=nosuch.*", "tests=nosuch.*: matches no check")),
    ("bad option: size suffix", bad_option("size=5X", "size=5X:")),
    ("force-pmu without a PMU fails the counter checks", case_force_pmu),
    ("Intel CPU without leaf 0AH: SKIP says no architectural PMU", case_intel_no_pmu),
    ("uncore: AMD (qemu64) skips every uncore check, naming the vendor",
     uncore_skip("amd", [], r"^# uncore: none: no uncore PMU pmuboot knows on AMD",
                 [(r"uncore\.", r"no uncore PMU pmuboot knows on AMD family 0xf model 0x6b")])),
    ("uncore: Skylake-Client without a PMU skips, naming CPUID.0AH and MCHBAREN",
     uncore_skip("skl", ["--cpu", "Skylake-Client"], r"Skylake client .*absent: .*CPUID\.0AH",
                 [(r"uncore\.skl\.imc_", r"MCHBAR \(0:0\.0 48H, host bridge 8086:29c0\) = 0x0: "
                   r"MCHBAREN\[0\] clear"),
                  (r"uncore\.skl\.", r"^Skylake-client model 0x5e without an architectural core PMU "
                   r"\(CPUID\.0AH:EAX\[7:0\]=0, the hypervisor hides the PMU\): the uncore MSRs "
                   r"are not read"),
                  (r"uncore\.nhm\.", r"^not a Nehalem \(seed 000\) uncore: Skylake client")])),
    ("uncore: Nehalem without a PMU skips, naming CPUID.0AH",
     uncore_skip("nhm", ["--cpu", "Nehalem"], r"Nehalem .*absent: .*CPUID\.0AH",
                 [(r"uncore\.nhm\.", r"^Nehalem model 0x1a without an architectural core PMU "
                   r"\(CPUID\.0AH:EAX\[7:0\]=0"),
                  (r"uncore\.skl\.", r"^not a Skylake client \(seed 001\) uncore: Nehalem")])),
    ("bad option: on-exit=return without keep ends the run", case_on_exit_return_rejected),
    ("size=1T parses (the range's own upper end)", case_size_1t),
    ("run.sh --mem below what OVMF needs is refused", case_mem_too_small),
    ("a failing check fails the run", case_selftest_fail),
    ("watchdog reports a hung check and the run goes on", case_selftest_hang),
    ("an unexpected fault ends the run with a register dump", case_selftest_fault),
    ("list prints every check", case_list),
    ("effective options are echoed and honoured", case_options_echo),
    ("-smp 4: every CPU started, per-CPU checks on each, tagged @apicN", case_smp4),
    ("-smp 2,maxcpus=4: absent CPUs are not started", case_smp_absent_cpus),
    ("boot-services=keep -smp 2: the AP through EFI MP services, a fault there reported", case_smp_keep),
    ("cpus=2: fail, hang, fault and interrupts-off hang on an AP are reported, the run goes on", case_smp_selftests),
    ("bad option: cpus= beyond the machine", bad_option("cpus=0-3", "cpus= names CPU 1, but this machine has 1")),
    ("bad option: cpus= range backwards", bad_option("cpus=3-1", "cpus=3-1: range 3-1 runs backwards")),
    ("-m 128", boot_variant(["--mem", "128"], want_header("memory", r"usable"))),
    ("-cpu qemu64", boot_variant(["--cpu", "qemu64"], want_header("cpu", r"AuthenticAMD"))),
    ("-cpu EPYC", boot_variant(["--cpu", "EPYC"], want_header("cpu", r"AuthenticAMD.*family 0x17"))),
    ("boot-services=keep: console, serial and results file", case_keep),
    ("no UART at serial=: boot services kept, results on the console", case_no_uart),
    ("shell: load options override pmuboot.cfg", case_shell_args),
    ("shell: boot-services=keep returns to the shell", case_shell_keep_return),
    ("shell: a bad argument returns EFI_INVALID_PARAMETER", case_shell_bad_arg),
    ("vpmu: without pmu=on the patched binary behaves as Debian's", case_vpmu_off_like_debian),
    ("vpmu: model, oracle and emulated PMU agree (three-way)", case_vpmu_oracle),
    ("vpmu errata: the table covers every injectable erratum", case_errata_table_complete),
    ("vpmu: a bad erratum or PMU property is refused, naming it", case_vpmu_bad_property),
] + [("vpmu %s: every counter check passes (%s)" % (label, cpu), vpmu_model(label, cpu, allowed, v))
     for label, cpu, v, allowed in VPMU_MODELS] + [
    ("vpmu events nehalem: every modelled seed-000 event's check passes",
     vpmu_events("nhm", "Nehalem")),
    ("vpmu events skylake: every modelled seed-001 event's check passes",
     vpmu_events("skl", "Skylake-Client")),
    ("vpmu skylake -smp 4: every counter check passes on every CPU",
     vpmu_model("skylake_smp4", "Skylake-Client", [NOT_NEHALEM, NO_SLOTS_GP, NO_ADAPTIVE], 4, smp=4)),
] + [
    ("vpmu erratum %s: the run fails where it should" % name, vpmu_erratum(name, must, allowed))
    for name, must, allowed in ERRATA]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-k", default="", help="run only cases whose title contains this")
    ap.add_argument("-j", type=int, default=2, help="parallel boots (default 2)")
    ap.add_argument("-v", action="store_true", help="print run.sh output of failing cases")
    ap.add_argument("--vpmu", action="store_true",
                    help="the emulated-PMU cases (make vpmu-test) instead of the others")
    a = ap.parse_args()
    cases = [(t, f) for t, f in CASES if a.k in t and t.startswith("vpmu") == a.vpmu]
    subprocess.run(["make", "-s", "all"], cwd=ROOT, check=True)
    wd = tempfile.mkdtemp(prefix="pmuboot-boot-tests.")

    def one(case):
        title, fn = case
        try:
            return title, True, fn(wd)
        except Fail as e:
            return title, False, str(e)
        except Exception as e:  # a bug in the test itself is a failure too
            return title, False, "%s: %s" % (type(e).__name__, e)

    passed = failed = 0
    results = []
    print("TAP version 13")
    print("1..%d" % len(cases))
    with ThreadPoolExecutor(max_workers=a.j) as ex:
        for i, (title, ok, info) in enumerate(ex.map(one, cases), 1):
            print("%s %d %s # %s" % ("ok" if ok else "not ok", i, title,
                                     info.splitlines()[0] if info else ""))
            if not ok:
                for l in info.splitlines()[1:40]:
                    print("#   " + l)
            sys.stdout.flush()
            passed += ok
            failed += not ok
            results.append((title, ok))
    errata = [(t, ok) for t, ok in results if t.startswith("vpmu erratum ")]
    if errata:
        print("# errata caught: %d / %d injected" % (sum(ok for _, ok in errata), len(errata)))
    print("logs in %s" % wd)
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
