"""juːmæʧ's per-pair results pinned (issue 64 goal 2: the comparison made faster must count the same): on
every shared UMR file pair (the Czech PDT-C gold files against their conversions and back, the English
files against themselves) and every option of the comparator (compat and exact, document-level relations
or not, --top, --only, --except, --errors, --explain), a digest of each sentence pair's counts, proof,
bound, cut, --errors data and --explain detail, as main counted them before the comparison was rewritten
(a2f5746). A changed digest names the file pair and the options whose counts moved."""

from __future__ import annotations

import hashlib
from typing import Any, Dict, List, Tuple

import pytest

from mrp.corpora.load import read_corpus
from mrp.pipeline import run_options
from mrp.pipeline.steps import paired, run_pairing

from conftest import shared_file

CZECH = "data/umr/czech-pdtc"

#: (name, options, metric parameters)
SETTINGS: List[Tuple[str, Dict[str, Any], Dict[str, Any]]] = [
    ("compat", {}, {"umatch_compat": True}),
    ("compat-nodoc", {}, {"umatch_compat": True, "umatch_no_document_level": True}),
    ("compat-top", {}, {"umatch_compat": True, "umatch_top": True}),
    ("compat-only", {}, {"umatch_compat": True, "umatch_only": "ARG0,ARG1,concept,mod"}),
    ("compat-except", {}, {"umatch_compat": True, "umatch_except": "concept"}),
    ("compat-errors", {"errors": True}, {"umatch_compat": True}),
    ("compat-explain", {"explain": True}, {"umatch_compat": True}),
    ("exact", {}, {}),
    ("exact-nodoc", {}, {"umatch_no_document_level": True}),
    ("exact-top", {}, {"umatch_top": True}),
    ("exact-except", {}, {"umatch_except": "concept"}),
    ("exact-errors", {"errors": True}, {}),
]


def _files() -> List[Tuple[str, str, str]]:
    out = []
    for name in ("dtest", "pdt", "pdtsc", "pcedt"):
        gold, conv = str(shared_file(CZECH, f"{name}-gold.umr")), str(shared_file(CZECH, f"{name}-conv.umr"))
        out += [(name, gold, conv), (name + "-reversed", conv, gold)]
    for number in ("0001", "0003", "0004"):
        path = str(shared_file("data", "umr", "english", f"english_umr-{number}.umr"))
        out.append((f"english-{number}", path, path))
    return out


def _digest(gold: Any, system: Any, options: Dict[str, Any], parameters: Dict[str, Any]) -> str:
    """The digest of one run (``gold`` and ``system``: paths, read afresh, or corpora read before)."""
    if isinstance(gold, str):
        gold, system = read_corpus(gold, "umr"), read_corpus(system, "umr")
    pairing = paired(gold, system)
    run, errors = run_pairing("umatch", pairing, run_options({"trace": True, **options}, parameters))
    digest = hashlib.sha256()
    for result in run.results:
        digest.update(repr((sorted(result.counts.items()), result.exact, result.bound, result.cut,
                            result.note, result.errors, result.detail)).encode("utf-8"))
    digest.update(repr(sorted((str(k), repr(v)) for k, v in errors.items())).encode("utf-8"))
    return digest.hexdigest()[:20]


PINNED: Dict[str, str] = {
    "dtest compat": "5f49d22d2f73c2f9b66b",
    "dtest compat-nodoc": "02f2598efedae585b0bc",
    "dtest compat-top": "620b61159e601309ef18",
    "dtest compat-only": "250ece043d8d35de06dc",
    "dtest compat-except": "9c28d02f6652fa55e433",
    "dtest compat-errors": "4886fa51e12953019dca",
    "dtest compat-explain": "6e1d5df8dd0f2da082c6",
    "dtest exact": "6f826e5d3edcea991137",
    "dtest exact-nodoc": "ddcf953c8972817f3c84",
    "dtest exact-top": "b3aaf7a69582a034fb97",
    "dtest exact-except": "dc176613e4f146a111e3",
    "dtest exact-errors": "b7c80facdd9ffa1e7bc5",
    "dtest-reversed compat": "f3c60c8cf8831ed2d672",
    "dtest-reversed compat-nodoc": "3d215a51a00508162a09",
    "dtest-reversed compat-top": "cae52657a9ab9d92a407",
    "dtest-reversed compat-only": "004e724ddf60b9b181e2",
    "dtest-reversed compat-except": "6722545a963d933d9a2b",
    "dtest-reversed compat-errors": "821ccff6203fd861234c",
    "dtest-reversed compat-explain": "4e47324215cb6a59a7e4",
    "dtest-reversed exact": "e4b9afd332fe85739051",
    "dtest-reversed exact-nodoc": "c9922c741f849ab5fcdf",
    "dtest-reversed exact-top": "fe26d1df27701110a77f",
    "dtest-reversed exact-except": "e198bf014520e7ed9949",
    "dtest-reversed exact-errors": "0ebacf017f5bc93b7dc2",
    "pdt compat": "ded1afb0ae1cbfb67dc0",
    "pdt compat-nodoc": "7181bb0439385adec420",
    "pdt compat-top": "4b62b6dcbf113b929cf4",
    "pdt compat-only": "fd28d51c6f8651131b11",
    "pdt compat-except": "130ba28df11ad507b6ec",
    "pdt compat-errors": "0f2127777e8bcb026322",
    "pdt compat-explain": "5075ce272e86fcb52ba2",
    "pdt exact": "9bedee60290453cbcc88",
    "pdt exact-nodoc": "032ced8d78f8acc31f8d",
    "pdt exact-top": "0e40a8362bced844d778",
    "pdt exact-except": "1259d5c39b6160a1c25e",
    "pdt exact-errors": "5eecfa862bd0cbdfab48",
    "pdt-reversed compat": "40cba3b79bd279aa2c88",
    "pdt-reversed compat-nodoc": "cf15b530bc29db3cfe9c",
    "pdt-reversed compat-top": "e86ea971ee027288e8b8",
    "pdt-reversed compat-only": "37859d6ee32ec2d22f26",
    "pdt-reversed compat-except": "e493184a55c115e73158",
    "pdt-reversed compat-errors": "75f0e6627788173d94e0",
    "pdt-reversed compat-explain": "5285ac13bda2ea76c2d2",
    "pdt-reversed exact": "c618fb098594f8a7ed22",
    "pdt-reversed exact-nodoc": "2d2f516edaf502b327c5",
    "pdt-reversed exact-top": "10d06e39ff688c9846be",
    "pdt-reversed exact-except": "6f6de7ca78b6a9aefe8b",
    "pdt-reversed exact-errors": "8b5c090e06a15cfbde84",
    "pdtsc compat": "6e5876630107d246d2ba",
    "pdtsc compat-nodoc": "0da1f107f9c156af5c6a",
    "pdtsc compat-top": "840347882ad20a58241f",
    "pdtsc compat-only": "2452a5466d267025b171",
    "pdtsc compat-except": "332da819ba98da227271",
    "pdtsc compat-errors": "9ddc85ed4049f4a68aff",
    "pdtsc compat-explain": "afcf684e9b0e0997f75a",
    "pdtsc exact": "faff85501da9f47313db",
    "pdtsc exact-nodoc": "e25a4abac61d4ec7ae9f",
    "pdtsc exact-top": "5cced40d1992177e4e0a",
    "pdtsc exact-except": "94d4de44abbb331b4d04",
    "pdtsc exact-errors": "da840cc7384b9c0b7dc9",
    "pdtsc-reversed compat": "4408f0f90b06085ba680",
    "pdtsc-reversed compat-nodoc": "2a4ff824a18723302b78",
    "pdtsc-reversed compat-top": "ca82c21d1ddaa15a6214",
    "pdtsc-reversed compat-only": "3a9aae7b0b7a1108d6a0",
    "pdtsc-reversed compat-except": "a3cfe2c4b15c71646fca",
    "pdtsc-reversed compat-errors": "cad7a4200fe6a24bfb41",
    "pdtsc-reversed compat-explain": "c2574bd2018edddc2cbd",
    "pdtsc-reversed exact": "63af885b92d355cd4ce1",
    "pdtsc-reversed exact-nodoc": "9752563f3e992d960771",
    "pdtsc-reversed exact-top": "6d216f262fb9bab353cb",
    "pdtsc-reversed exact-except": "76ac5d366b211eac3a3a",
    "pdtsc-reversed exact-errors": "90f5ead8936e06813a52",
    "pcedt compat": "fc47847b9c271696cdb1",
    "pcedt compat-nodoc": "3a59edfcefb077952887",
    "pcedt compat-top": "0fb7612194abb3496a1c",
    "pcedt compat-only": "bd35f866c877a9a669ed",
    "pcedt compat-except": "937d8e2fd5bb9581e6b1",
    "pcedt compat-errors": "acb70806d318ea72b6a0",
    "pcedt compat-explain": "cb6972c6e403ec8defb4",
    "pcedt exact": "a4978d84b25c3aab4070",
    "pcedt exact-nodoc": "16437e7d07e2397069c4",
    "pcedt exact-top": "f0b2d78c784fc3a6bb75",
    "pcedt exact-except": "20469dfff99023232247",
    "pcedt exact-errors": "ab9d965916b6baf63243",
    "pcedt-reversed compat": "f764de85df02b122f2a2",
    "pcedt-reversed compat-nodoc": "df04c01477645fefc1d9",
    "pcedt-reversed compat-top": "25ecacdccb85d95cd057",
    "pcedt-reversed compat-only": "b86afa01407bd6d46052",
    "pcedt-reversed compat-except": "01da89d9ec9e5fd2187e",
    "pcedt-reversed compat-errors": "78ba8729e91e8a4c0ef0",
    "pcedt-reversed compat-explain": "94649317d082803145f1",
    "pcedt-reversed exact": "538ee2335164adc60942",
    "pcedt-reversed exact-nodoc": "9b777e27eac21ef256f5",
    "pcedt-reversed exact-top": "683f11f774e21d28c7a7",
    "pcedt-reversed exact-except": "c05e17102244ee1c4798",
    "pcedt-reversed exact-errors": "66cab8e5f9397fee82ba",
    "english-0001 compat": "05d546af7551fa4051f1",
    "english-0001 compat-nodoc": "05d546af7551fa4051f1",
    "english-0001 compat-top": "3f2b90e2cb9a59feb2bf",
    "english-0001 compat-only": "33190b28902c3bb831b2",
    "english-0001 compat-except": "bc895c63974d27cb1333",
    "english-0001 compat-errors": "b8ca7d7c0a1a66a38077",
    "english-0001 compat-explain": "2b3de1f0d0af647c79b2",
    "english-0001 exact": "926b51aafc33d3c03726",
    "english-0001 exact-nodoc": "7e88f70820cb1e3b49c1",
    "english-0001 exact-top": "1acbb3a3ce0c5a6a0a9c",
    "english-0001 exact-except": "0c24586c1562a2b887bc",
    "english-0001 exact-errors": "0bfd7337f4043342141c",
    "english-0003 compat": "af0a2e9a4b592be711c5",
    "english-0003 compat-nodoc": "af0a2e9a4b592be711c5",
    "english-0003 compat-top": "4417486586c8b384f6e2",
    "english-0003 compat-only": "d3db74c514f9d5838084",
    "english-0003 compat-except": "d6d6916043c8f7c79912",
    "english-0003 compat-errors": "b630177056f231f1b4e4",
    "english-0003 compat-explain": "afd8517a42abc70410fa",
    "english-0003 exact": "090f78bd7273c056dfd8",
    "english-0003 exact-nodoc": "2bca952c1800fe9bb1d4",
    "english-0003 exact-top": "2387fefa8567e9dfe282",
    "english-0003 exact-except": "fb1a012f513cb561f633",
    "english-0003 exact-errors": "cb0a678cf3f380f95b20",
    "english-0004 compat": "8210c6653d45696b2e53",
    "english-0004 compat-nodoc": "8210c6653d45696b2e53",
    "english-0004 compat-top": "a9685bfe828b05d99414",
    "english-0004 compat-only": "e502befaaaa64b8d2de9",
    "english-0004 compat-except": "a1515c04e7a3deb05cc9",
    "english-0004 compat-errors": "d4bd49f26c398fb1a7e8",
    "english-0004 compat-explain": "c17ccd2874d1a55cac2b",
    "english-0004 exact": "3cfd2429c2bb7cee1f89",
    "english-0004 exact-nodoc": "9434f690dd5988e81cb1",
    "english-0004 exact-top": "5fff16802ee4e9b94695",
    "english-0004 exact-except": "4d2ceaee0f149d7d73c6",
    "english-0004 exact-errors": "8cf2f55c7bd851d4651c",
}


@pytest.mark.parametrize("k", range(11))
def test_every_count_as_before(k: int) -> None:
    name, gold, system = _files()[k]
    found = {f"{name} {setting}": _digest(gold, system, options, parameters)
             for setting, options, parameters in SETTINGS}
    assert found == {key: value for key, value in PINNED.items() if key.startswith(name + " ")}


@pytest.mark.parametrize("k", range(8))
def test_every_count_as_before_on_one_reading(k: int) -> None:
    """The same runs one after the other on the files read once (they share juːmæʧ's preparation, and the
    exact map starts from the greedy a compat run made on it)."""
    name, gold, system = _files()[k]
    first, second = read_corpus(gold, "umr"), read_corpus(system, "umr")
    found = {f"{name} {setting}": _digest(first, second, options, parameters)
             for setting, options, parameters in SETTINGS}
    assert found == {key: value for key, value in PINNED.items() if key.startswith(name + " ")}
