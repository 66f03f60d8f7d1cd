"""Every export of every example scenario validates (libvirt: virt-xml-validate) or parses
(Xen: xl's own parser; shell: bash -n; Proxmox: the qm option schema; OpenStack: nova.conf,
Heat YAML and Nova's extra-spec rules), and every checker rejects what its platform rejects."""

from __future__ import annotations

from pathlib import Path

import pytest

from advisor.export import export_config
from advisor.export.check import (
    XlParser,
    bash_syntax,
    check_extra_specs,
    check_files,
    check_qm,
    libvirt_tool,
    parse_flavors_yaml,
    parse_nova_conf,
    parse_rtds_line,
    validate_libvirt_xml,
)
from tests.advisor.examples import SCENARIOS, TARGETS

FIXTURES = Path(__file__).parent / "fixtures"


def test_the_platform_tools_are_installed():
    """./run installs them (TEST_PACKAGES): without them nothing below would check anything."""
    assert libvirt_tool() is not None, "virt-xml-validate and xmllint (libvirt-clients, libxml2-utils)"
    assert XlParser.available() is not None, "Xen's libxlutil (libxenmisc4.17)"


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda p: p.name)
def test_every_export_validates_or_parses(advice_of, scenario, target):
    ex = export_config(advice_of(scenario), target)
    findings = check_files(ex.files)
    assert findings
    assert {f.file for f in findings} >= {f for f in ex.files if not f.endswith(".md")}
    bad = [str(f) for f in findings if f.ok is not True]
    assert not bad, "\n".join(bad)
    if target == "libvirt":
        assert sum(f.checker == "virt-xml-validate" for f in findings) >= 2 * len(ex.plan.vm_groups())


# --- each checker fails on what its platform refuses -------------------------------------------
DOMAIN = """<domain type='kvm'><name>x</name><memory unit='KiB'>1024</memory><vcpu>1</vcpu>
<cputune><period>{period}</period><quota>5000</quota></cputune>
<os><type arch='x86_64'>hvm</type></os><devices><disk type='file' device='disk'>
<driver name='qemu' type='qcow2' cache='{cache}' io='native'/><source file='/x.qcow2'/>
<target dev='vda' bus='virtio'/></disk></devices></domain>"""


def test_virt_xml_validate_refuses_an_unknown_cache_mode_and_a_short_period():
    assert validate_libvirt_xml(DOMAIN.format(cache="none", period=10000)) == (True, "")
    ok, msg = validate_libvirt_xml(DOMAIN.format(cache="fast", period=10000))
    assert ok is False and msg
    assert validate_libvirt_xml(DOMAIN.format(cache="none", period=500))[0] is False  # below 1000 us


def test_a_fragment_is_validated_inside_a_minimal_domain():
    assert validate_libvirt_xml("<cputune><period>2000</period><quota>1500</quota></cputune>", fragment=True)[0]
    assert validate_libvirt_xml("<cputune><period>20</period></cputune>", fragment=True)[0] is False
    assert validate_libvirt_xml("<disk type='file' device='disk'><driver name='qemu' cache='none'/>"
                                "<source file='/a'/><target dev='vda'/></disk>", fragment=True)[0]


def test_xl_parser_accepts_xens_own_example_and_refuses_an_xm_python_config():
    xl = XlParser()
    values, problems = xl.parse((FIXTURES / "xlexample.hvm").read_text(), "xlexample.hvm")
    assert problems == []
    assert values["name"] == "example.hvm" and values["memory"] == 128 and values["vcpus"] == 2
    assert values["disk_parsed"][0]["pdev_path"] == "/dev/vg/guest-volume"
    _, problems = xl.parse((FIXTURES / "xmexample.hvm").read_text(), "xmexample.hvm")
    assert problems and "Python" in " ".join(problems)


def test_xl_parser_refuses_broken_syntax_and_disk_specifications():
    xl = XlParser()
    assert xl.parse('name = "a\nmemory = 5\n')[1]  # unterminated string
    assert xl.parse("name = a-b\n")[1]  # a bare word
    _, problems = xl.parse('name = "a"\ndisk = [ "format=qcow2, vdev=xvda, bogus=1, target=/x" ]\n')
    assert any("disk specification" in p for p in problems)


def test_rtds_options_follow_xens_limits():
    assert parse_rtds_line("xl sched-rtds -d vm -v all -p 13291 -b 9818".split())["budget"] == 9818
    for bad in ("-d vm -p 1000 -b 2000", "-d vm -p 5 -b 5", "-d vm -p 1000", "-d vm -p 1.5 -b 1", "-x 1"):
        with pytest.raises(ValueError):
            parse_rtds_line(["xl", "sched-rtds", *bad.split()])


def test_qm_options_follow_the_proxmox_schema():
    ok = check_qm(["qm", "create", "1001", "--name", "web-01", "--memory", "4096", "--cores", "2",
                   "--scsi0", "local-lvm:38,cache=none,aio=native,discard=on,iothread=1"])
    assert ok["memory"] == "4096"
    assert check_qm(["qm", "set", "1001", "--affinity", "1-2,5", "--cpulimit", "0.74", "--cpuunits", "10000"])
    for args in (["--scsi0", "local:38,cache=fast"], ["--scsi0", "local:38,aio=posix"], ["--cpuunits", "0"],
                 ["--cpulimit", "200"], ["--name", "web_01"], ["--affinity", "1;2"], ["--memory", "4G"],
                 ["--bogus", "1"], ["--scsi0", "local"], ["--hookscript", "snippets/x.sh"]):
        with pytest.raises(ValueError):
            check_qm(["qm", "set", "1001", *args])
    with pytest.raises(ValueError):
        check_qm(["qm", "create", "99", "--memory", "4096"])  # VMIDs start at 100


def test_nova_conf_values_are_typed():
    good = "[DEFAULT]\ncpu_allocation_ratio = 2.0\nram_allocation_ratio = 1.0\n[libvirt]\ndisk_cachemodes = file=none\n"
    assert parse_nova_conf(good).get("DEFAULT", "cpu_allocation_ratio") == "2.0"
    for bad in ("[DEFAULT]\ncpu_allocation_ratio = two\n", "[libvirt]\ndisk_cachemodes = file=fast\n",
                "[DEFAULT]\nreserved_host_memory_mb = 1.5\n", "no section\n", "[compute]\ncpu_dedicated_set = 1;2\n"):
        with pytest.raises(ValueError):
            parse_nova_conf(bad)


def test_extra_specs_follow_novas_rules():
    check_extra_specs({"hw:cpu_policy": "dedicated", "hw:cpu_realtime": "yes", "hw:emulator_threads_policy": "isolate"})
    for bad in ({"hw:cpu_policy": "pinned"}, {"hw:cpu_realtime": "yes", "hw:cpu_policy": "shared",
                                             "hw:emulator_threads_policy": "isolate"},
                {"hw:cpu_realtime": "yes", "hw:cpu_policy": "dedicated"},
                {"quota:cpu_period": "500", "quota:cpu_quota": "400"}, {"quota:cpu_quota": "-1"}):
        with pytest.raises(ValueError):
            check_extra_specs(bad)
    with pytest.raises(ValueError):
        parse_flavors_yaml("heat_template_version: 2018-08-31\nresources:\n  f:\n    type: OS::Nova::Server\n")


def test_bash_n_refuses_a_broken_script():
    assert bash_syntax("echo ok\n") == (True, "")
    assert bash_syntax("if true; then echo\n")[0] is False


def test_a_broken_export_file_is_reported_not_raised():
    findings = check_files({"xen/a.cfg": "name = \n", "libvirt/a/domain.xml": "<domain>", "openstack/n.conf": "x",
                            "p/create-vms.sh": "qm create 1001 --cores zero\n"})
    assert [f.ok for f in findings].count(False) == 4
