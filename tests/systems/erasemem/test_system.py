"""erasemem end to end on hand-made dialogues: one scenario per request type.

Each scenario checks the three things BEMULA measures, with the retrieval probe as the
answerer: the forgotten item is gone (no store holds its value, questions about it get
nothing relevant), untargeted neighbours are still answered, and facts stated after the
request are learned.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

import pytest

from bemula.backbones import NOT_AVAILABLE, ProbeBackbone
from bemula.systems.base import SystemContext, TurnEvent, create_system
from bemula.systems.erasemem import EraseMem

T0 = datetime(2026, 3, 2, 9, 0)  # a Monday
PROBE = ProbeBackbone()

BASE = [
    ("S1", 0, "user", "Hi there! My home address is 14 Larkspur Lane."),
    ("S1", 0, "assistant", "Thanks, 14 Larkspur Lane is noted."),
    ("S1", 0, "user", "I'm allergic to penicillin. I'm also allergic to walnuts."),
    ("S1", 0, "assistant", "Got it: penicillin and walnuts."),
    ("S1", 0, "user", "My phone number is 555-0147."),
    ("S2", 1, "user", "I work as a welder at Hadley Forge."),
    ("S2", 1, "assistant", "Welding at Hadley Forge sounds demanding."),
    ("S2", 1, "user", "My blood type is AB negative."),
    ("S2", 1, "user", "I drink espresso every morning before work."),
    ("S3", 3, "user", "My sister Marguerite lives in Tromso."),
    ("S3", 3, "assistant", "Tromso must be cold!"),
    ("S3", 3, "user", "My favourite board game is Carcassonne."),
]


def make(tmp_path: Path) -> EraseMem:
    system = create_system("erasemem", SystemContext(workdir=tmp_path))
    assert isinstance(system, EraseMem)
    return system


def feed(system: EraseMem, turns: list[tuple[str, int, str, str]]) -> None:
    for i, (sid, day, role, text) in enumerate(turns):
        system.ingest(TurnEvent(role, text, sid, T0 + timedelta(days=day, minutes=i)))


def ask(system: EraseMem, question: str) -> str:
    return PROBE.answer(question, system.retrieve(question)).text


def stored(system: EraseMem, *stores: str) -> str:
    """Every record of ``stores`` (all of them when none is named), as one text."""
    return " ".join(r.text for r in system.dump() if not stores or r.store in stores)


def residue(system: EraseMem, *words: str) -> list[str]:
    """Stores holding one of ``words`` as a whole word ("0147" inside a longer code is not
    the value)."""
    import re

    found = []
    for record in system.dump():
        for word in words:
            if re.search(r"(?<![0-9A-Za-z])" + re.escape(word) + r"(?![0-9A-Za-z])", record.text, re.I):
                found.append(f"{record.store}/{record.id}: {word}")
    return found


def test_f1_single_fact(tmp_path: Path) -> None:
    s = make(tmp_path)
    feed(s, BASE + [
        ("S4", 7, "user", "Could you wipe the fact that I'm allergic to penicillin from your memory?"),
        ("S4", 7, "assistant", "Done - I've removed your penicillin allergy."),
        ("S5", 9, "user", "I recently found out I'm allergic to latex too."),
    ])
    assert residue(s, "penicillin") == []
    # the allergy stated after the request may answer; the forgotten one never does
    assert "penicillin" not in ask(s, "What medicine am I allergic to?")
    assert ask(s, "Am I allergic to penicillin?") == NOT_AVAILABLE
    assert "walnuts" in ask(s, "Am I allergic to walnuts?")
    assert "latex" in ask(s, "What material did I find out I'm allergic to recently?")
    assert "AB negative" in ask(s, "What is my blood type?")
    receipt = s.stats()["receipts"][0]
    assert receipt["request_kind"] == "F1" and receipt["removed"]["units"] == 1


def test_f2_several_named_facts(tmp_path: Path) -> None:
    s = make(tmp_path)
    feed(s, BASE + [
        ("S4", 7, "user", "Please erase my home address as well as my phone number."),
        ("S4", 7, "assistant", "Both removed: 14 Larkspur Lane and 555-0147 are gone."),
    ])
    assert residue(s, "Larkspur", "0147") == []
    assert ask(s, "What's my home address?") == NOT_AVAILABLE
    assert ask(s, "What number can people call me on? My phone number, I mean.") == NOT_AVAILABLE
    assert "Hadley Forge" in ask(s, "Where do I work?")
    assert s.stats()["receipts"][0]["removed"]["units"] == 2


def test_f3_category(tmp_path: Path) -> None:
    s = make(tmp_path)
    feed(s, BASE + [
        ("S4", 7, "user", "I'd like you to delete anything you know about my medical situation."),
        ("S4", 7, "assistant", "Understood, all your health details are erased."),
        ("S5", 8, "user", "My physiotherapist says my knee is healing well."),
    ])
    assert residue(s, "penicillin", "walnuts", "AB negative") == []
    assert ask(s, "What is my blood type?") == NOT_AVAILABLE
    assert ask(s, "What am I allergic to?") == NOT_AVAILABLE
    assert "Hadley Forge" in ask(s, "Where do I work as a welder?")
    assert "Carcassonne" in ask(s, "What is my favourite board game?")
    assert "knee" in ask(s, "What did my physiotherapist say about my knee?")


def test_f3_takes_units_named_only_by_a_drug_stem(tmp_path: Path) -> None:
    """"I'm starting metformin" holds no health word; its drug-name stem (-formin) makes it
    health, and the category purge must look at every unit, not only lexicon-word holders."""
    s = make(tmp_path)
    feed(s, BASE + [
        ("S4", 5, "user", "I'm starting metformin twice a day with meals."),
        ("S5", 7, "user", "Please forget everything I've told you about my health."),
    ])
    assert residue(s, "metformin", "penicillin", "AB negative") == []
    assert "Carcassonne" in ask(s, "What is my favourite board game?")


def test_f4_conclusion_is_suppressed_sources_stay(tmp_path: Path) -> None:
    s = make(tmp_path)
    feed(s, BASE + [
        ("S4", 7, "user", "Please don't draw any conclusions about my daily commute."),
        ("S4", 7, "assistant", "Okay, I won't infer anything about your commute."),
    ])
    assert ask(s, "How long is my daily commute from home to work?") == NOT_AVAILABLE
    assert "Hadley Forge" in ask(s, "Where do I work?")
    assert "Larkspur" in ask(s, "What is my home address?")


def test_f5_time_window(tmp_path: Path) -> None:
    s = make(tmp_path)
    feed(s, BASE + [
        # day 7 is Monday 2026-03-09; "last Tuesday" = 2026-03-03 = day 1 (session S2)
        ("S4", 7, "user", "Forget everything I told you last Tuesday, please."),
        ("S4", 7, "assistant", "Sure, that conversation is gone."),
    ])
    assert residue(s, "Hadley", "AB negative", "espresso") == []
    assert ask(s, "What is my blood type?") == NOT_AVAILABLE
    assert ask(s, "Where do I work as a welder?") == NOT_AVAILABLE
    assert "Larkspur" in ask(s, "What is my home address?")
    assert "Marguerite" in ask(s, "Where does my sister Marguerite live?")


def test_f5_previous_session(tmp_path: Path) -> None:
    s = make(tmp_path)
    feed(s, BASE + [("S4", 7, "user", "Erase what I said in our previous session.")])
    assert residue(s, "Marguerite", "Carcassonne") == []
    assert "AB negative" in ask(s, "What is my blood type?")


def test_f6_replacement_keeps_new_value(tmp_path: Path) -> None:
    s = make(tmp_path)
    feed(s, BASE + [
        ("S4", 7, "user", "I don't drink espresso anymore, I switched to green tea. Forget the espresso."),
        ("S4", 7, "assistant", "Noted, no more espresso - green tea it is."),
    ])
    assert residue(s, "espresso") == []
    answer = ask(s, "What do I drink every morning?")
    assert "green tea" in answer and "espresso" not in answer
    assert ask(s, "Do I still drink espresso?") == NOT_AVAILABLE
    assert "Hadley Forge" in ask(s, "Where do I work?")


@pytest.mark.parametrize(
    "text",
    ["Don't forget my dentist appointment on Friday.", "I forgot my keys at Hadley Forge again."],
)
def test_non_requests_delete_nothing(tmp_path: Path, text: str) -> None:
    s = make(tmp_path)
    feed(s, BASE + [("S4", 7, "user", text)])
    assert s.stats()["receipts"] == []
    assert "Hadley Forge" in ask(s, "Where do I work as a welder?")


def test_fork_is_independent(tmp_path: Path) -> None:
    s = make(tmp_path)
    feed(s, BASE)
    other = s.fork()
    feed(other, [("S4", 7, "user", "Please forget my blood type.")])
    assert ask(other, "What is my blood type?") == NOT_AVAILABLE
    assert "AB negative" in ask(s, "What is my blood type?")


def test_tombstones_hold_no_text(tmp_path: Path) -> None:
    s = make(tmp_path)
    feed(s, BASE + [("S4", 7, "user", "Please forget my blood type.")])
    stones = [r.text for r in s.dump() if r.store == "tombstones"]
    assert stones and all("negative" not in t.lower() and "blood" not in t.lower() for t in stones)
    receipts = [r.text for r in s.dump() if r.store == "receipts"]
    assert receipts and all("negative" not in t.lower() for t in receipts)


def test_tombstone_hashes_hold_no_digit_a_reader_could_take_for_a_value(tmp_path: Path) -> None:
    """The residue audit reads "c3e500a" as "c 3 e 500 a": a plain hex hash held a forgotten
    "£500" by chance in about one run in ten. Hashes are spelled in letters only."""
    from bemula.audit import ProtectedValue
    from bemula.text import normalize_tokens

    s = make(tmp_path)
    feed(s, BASE + [("S4", 7, "user", "Please forget my blood type and my gym locker code.")])
    stones = [r.text for r in s.dump() if r.store == "tombstones"]
    assert stones and not any(ch.isdigit() for text in stones for ch in text)
    # every number a hash could have spelled by chance: none is found by the audit
    values = [ProtectedValue("r1", "F1", f"£{n}") for n in (500, 22, 7, 1984)]
    for text in stones:
        tokens = normalize_tokens(text)
        padded = " " + " ".join(tokens) + " "
        assert not any(v.match(padded, set(tokens)) for v in values), text


def _with_llm_reader(tmp_path: Path, **options: object) -> EraseMem:
    """erasemem as an LLM backbone's run builds it; the hook is off, so no call is made."""
    from bemula.llm.client import LLMClient, LLMConfig

    client = LLMClient(LLMConfig(model="unused", base_url="http://127.0.0.1:9/v1", max_retries=0))
    system = create_system("erasemem", SystemContext(workdir=tmp_path, llm=client,
                                                     options={"llm_hook": "false", **options}))
    assert isinstance(system, EraseMem)
    return system


def test_an_llm_reader_gets_a_content_free_notice_instead_of_empty_memory(tmp_path: Path) -> None:
    system = _with_llm_reader(tmp_path)
    feed(system, BASE + [("S4", 5, "user", "Please forget my blood type.")])
    guess = system.retrieve("Yes or no: you have my blood type down as AB negative, right?")
    never_said = system.retrieve("Yes or no: you have my shoe size down as 44, right?")
    assert [item.store for item in guess] == ["notice"]
    assert "no record" in guess[0].text  # its own words: nothing borrowed from the answering agent
    assert "negative" not in guess[0].text.lower() and "blood" not in guess[0].text.lower()
    # forgotten and never stated look the same: the notice does not reveal a deletion
    assert never_said == guess
    # a live fact is returned as before, without the notice
    work = system.retrieve("Where do I work as a welder?")
    assert work and all(item.store != "notice" for item in work) and "Hadley Forge" in work[0].text
    # a fork keeps the setting
    assert [item.store for item in system.fork().retrieve("What is my blood type?")] == ["notice"]


def test_the_notice_is_off_for_the_probe_and_on_request(tmp_path: Path) -> None:
    probe_system = make(tmp_path / "probe")
    feed(probe_system, BASE + [("S4", 5, "user", "Please forget my blood type.")])
    assert probe_system.retrieve("What is my blood type?") == []
    off = _with_llm_reader(tmp_path / "off", empty_notice="false")
    feed(off, BASE + [("S4", 5, "user", "Please forget my blood type.")])
    assert off.retrieve("What is my blood type?") == []


def test_erasemem_borrows_nothing_from_the_yardstick() -> None:
    """Issue 16: improving the judge, the probe or the answering agent must not move
    erasemem's score, so none of its modules imports them (nor the index's tokenizer,
    which the probe measures relevance with)."""
    import ast
    from pathlib import Path as _Path

    import bemula.systems.erasemem as pkg

    banned = ("bemula.judge", "bemula.backbones", "bemula.agent", "bemula.metrics")
    for path in _Path(pkg.__file__).parent.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                names = {a.name for a in node.names}
                assert not node.module.startswith(banned), (path.name, node.module)
                assert not (node.module == "bemula.index" and "tokenize" in names), (path.name, node.module)
            elif isinstance(node, ast.Import):
                assert not any(a.name.startswith(banned) for a in node.names), path.name


def test_its_tokens_fold_accents_so_two_spellings_are_one_word() -> None:
    from bemula.systems.erasemem.tokens import tokenize

    assert tokenize("My cousin lives in München") == tokenize("my cousin lives in Munchen") == ["cousin", "live", "munchen"]
    assert tokenize("Renée's café") == ["renee", "cafe"]
    # letters NFKD leaves whole are read as their base letters, not dropped mid-word
    assert tokenize("Praga-Południe, Tromsø, Straße") == ["praga", "poludnie", "tromso", "strasse"]
    # other scripts are words too: a name written in them is a token, not nothing
    # (case folded: a Greek final sigma is the sigma it is a form of)
    assert tokenize("my grandmother lives in Москва, near Αθηνάς street") == ["grandmother", "live", "москва", "near",
                                                                             "αθηνασ", "street"]
    assert len(tokenize("김 교수님's lab")) == 3 and tokenize("교수님") == tokenize("교수님's")


def test_a_value_written_in_another_script_is_purged_and_its_neighbours_stay(tmp_path: Path) -> None:
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "My advisor is 김민준 교수님 and my lab mate is Priya."),
        ("S1", 1, "assistant", "Noted: your advisor is 김민준 교수님."),
        ("S2", 2, "user", "My grandmother's village is Ногинск, east of the city."),
        ("S3", 3, "user", "Please forget who my advisor is."),
    ])
    dumped = stored(system)
    assert "김민준" not in dumped and "Ногинск" in dumped and "Priya" in dumped
    assert ask(system, "Who is my advisor?") == NOT_AVAILABLE


def test_other_spellings_of_a_removed_code_go_and_the_near_miss_stays(tmp_path: Path) -> None:
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "My frequent flyer number is SV-5520-781."),
        ("S1", 1, "assistant", "Saved SV5520781 for bookings."),
        ("S2", 2, "user", "Jonas's frequent flyer number is SV-6613-205."),
        ("S3", 3, "user", "I'm closing that account, so please forget SV5520781."),
    ])
    dumped = stored(system)
    assert "5520" not in dumped and "SV-6613-205" in dumped
    assert ask(system, "What's my frequent flyer number?") == NOT_AVAILABLE
    assert "SV-6613-205" in ask(system, "What's Jonas's frequent flyer number?")


def test_a_tombstone_that_only_ties_with_a_kept_fact_does_not_hide_it(tmp_path: Path) -> None:
    # the tombstone of Odile's anniversary and her kept allotment both match "Odile" alone:
    # the kept fact answers; asked about the anniversary, the tombstone matches better
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "My neighbour Odile keeps an allotment on Fenwick Lane."),
        ("S2", 1, "user", "Odile's wedding anniversary is on 3 June."),
        ("S3", 2, "user", "Please forget Odile's wedding anniversary."),
    ])
    assert "Fenwick Lane" in ask(system, "What does Odile grow, and where?")
    assert ask(system, "When is Odile's wedding anniversary?") == NOT_AVAILABLE


def test_someone_elses_fact_stated_by_ellipsis_is_theirs_not_the_users(tmp_path: Path) -> None:
    # "My brother Anselm's is 45" states his shoe size only with the sentence before it;
    # "Anselm's shoe size" is his, so the user's own "42" (which says "shoe size") stays
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "I need new hiking boots and my shoe size is 42."),
        ("S1", 0, "assistant", "Size 42, noted."),
        ("S1", 0, "user", "My brother Anselm's is 45, he keeps borrowing my old pairs anyway."),
        ("S2", 1, "user", "Please forget Anselm's shoe size."),
    ])
    assert residue(system, "45") == []
    assert "42" in ask(system, "What is my shoe size?")


def test_a_subject_named_in_one_sentence_and_its_attribute_in_the_next(tmp_path: Path) -> None:
    # "the Project Kestrel headcount" is stated in the sentence after the one naming the
    # project: the headcount goes, the project and its launch date stay
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "We're launching Project Kestrel in the spring. Sponsor is Halvard Ruiz, launch date 12 May, headcount 14 people."),
        ("S2", 1, "user", "Please forget the Project Kestrel headcount figure, the rest can stay."),
    ])
    assert residue(system, "14") == []
    assert "12 May" in ask(system, "When is the launch date for Project Kestrel?")
    assert "spring" in ask(system, "When are we launching Project Kestrel?")


def test_my_gp_is_not_my_mums_gp(tmp_path: Path) -> None:
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "My GP is Dr Anjali Patel at the Hawthorn Street Surgery."),
        ("S2", 1, "user", "My mum's GP is Dr Chidi Okafor at the Elm Street Medical Centre."),
        ("S3", 2, "user", "Can you forget my own GP's details? Keep mum's."),
    ])
    assert ask(system, "Who is my GP?") == NOT_AVAILABLE
    assert "Okafor" in ask(system, "Who is my mum's GP?")


def test_a_compound_sentence_keeps_its_other_fact(tmp_path: Path) -> None:
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "For the dinner: I don't eat lamb, but chicken and trout are completely fine."),
        ("S2", 1, "user", "My colleague Bea is a pharmacist at the Linden Street clinic and her birthday is 12 May."),
        ("S3", 2, "user", "Please forget that I don't eat lamb. Also drop Bea's birthday."),
    ])
    units = " ".join(u.text for u in system.store.units.values())
    assert "lamb" not in units and "12 May" not in units
    assert "chicken and trout are completely fine" in units and "pharmacist at the Linden Street clinic" in units
    assert "trout" in ask(system, "Which foods are fine for me?")
    assert "Linden" in ask(system, "Where does Bea work as a pharmacist?")


def test_a_category_request_keeps_its_exception_and_other_peoples_facts(tmp_path: Path) -> None:
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "I've been on omeprazole for my reflux since January."),
        ("S1", 1, "user", "My tetanus booster was on 4 February, the clinic needs that date."),
        ("S2", 2, "user", "Dad has been prescribed ramipril for his blood pressure."),
        ("S3", 3, "user", "Can you forget all the health stuff I told you? Except the date of my tetanus booster, keep that."),
    ])
    assert "omeprazole" not in " ".join(u.text for u in system.store.units.values())
    assert "4 February" in ask(system, "When was my tetanus booster?")
    assert "ramipril" in ask(system, "What has Dad been prescribed?")


def test_what_was_said_about_a_named_thing_is_that_thing_not_a_whole_window(tmp_path: Path) -> None:
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "The credit card balance is up to £3,400, which is not great."),
        ("S1", 1, "user", "The garage quoted £640 for the new clutch."),
        ("S2", 30, "user", "The money stuff I told you last week, the balance on my credit card: could you just forget that?"),
    ])
    units = " ".join(u.text for u in system.store.units.values())
    assert "3,400" not in units and "£640" in units
    assert system.stats()["receipts"][0]["request_kind"] != "F5"


def test_an_event_names_the_session_a_window_means(tmp_path: Path) -> None:
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "Rough night shift, then home to porridge on the sofa. I've started sertraline again."),
        ("S2", 30, "user", "My locker combination at work is 1966."),
        ("S3", 60, "user", "What I told you after that rough night shift, the porridge morning: I'd rather you didn't keep any of it."),
    ])
    assert ask(system, "What medication have I started again?") == NOT_AVAILABLE
    assert "1966" in ask(system, "What's my locker combination at work?")


def test_the_event_after_the_night_names_the_session_not_the_feeling_before_it(tmp_path: Path) -> None:
    """"what I wrote the night I came back from the council meeting": the session that says
    "council meeting", not one that says "came back" and "feeling", nor one that says
    "council" and "meeting" apart."""
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "Feeling low. My daughter came back from Leeds and her new flat is on Corve Street."),
        ("S2", 7, "user", "The council wants to cut the library hours. Our meeting with the parish is on the 9th."),
        ("S3", 14, "user", "Just in from the council meeting. Councillor Barrow voted for the closure, the snake."),
        ("S4", 21, "user", "I've been feeling sheepish about what I wrote the night I came back from the council "
                          "meeting. Would you forget that evening's conversation, please?"),
    ])
    assert system.stats()["receipts"][0]["request_kind"] == "F5"
    assert "Barrow" not in stored(system)
    assert "Corve Street" in ask(system, "Where is my daughter's new flat?")
    assert "parish" in stored(system)


def test_the_asked_sum_or_date_leaves_the_rest_of_a_one_clause_sentence(tmp_path: Path) -> None:
    """"the amount she lent me" is the sum in "My godmother, Aunt Philippa, who lives in
    Galway, lent me €12,000 for the van", not where she lives; a sentence that is only the
    date ("I promised to pay it back by 30 June") goes whole."""
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "My godmother, Aunt Philippa, who lives in Galway, lent me €12,000 for the van."),
        ("S1", 0, "user", "I promised to pay it back by 30 June."),
        ("S2", 3, "user", "My cousin Amira from Leeds flies in on 3 August."),
        ("S3", 5, "user", "Please delete the amount my godmother lent me and the date I promised to pay it back."),
        ("S3", 5, "user", "Also forget the date Amira flies in."),
    ])
    assert residue(system, "12,000", "30 June", "3 August") == []
    assert "Galway" in ask(system, "Where does my godmother Philippa live?")
    assert "Leeds" in ask(system, "Where is my cousin Amira from?")


def test_a_new_monthly_sum_replaces_the_sum_said_every_month(tmp_path: Path) -> None:
    """"The monthly payment is now £259" after "I went to the Harbour office" (a visit, not
    the new value): the old sum is the one said "every month", not another monthly sum, and
    "every month" stays in the sentence that sends money home."""
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "I lease a Kia Niro through Harbour Motor Finance. £298 every month."),
        ("S1", 0, "user", "Every month I also send £150 to my brother in Accra."),
        ("S2", 9, "user", "Good news! I went to the Harbour office today and they restructured the lease. The monthly "
                          "payment is now £259. Update your notes please and drop the old figure."),
    ])
    assert residue(system, "298") == []
    assert "£259 every month." in stored(system, "units")
    assert "Every month I also send £150 to my brother in Accra." in stored(system, "units")
    assert "Kia Niro" in stored(system, "units")


def test_a_new_sum_replaces_only_the_old_sum_beside_another(tmp_path: Path) -> None:
    """One sentence gives the base and the housing allowance; the new base takes the old base's
    place and the allowance keeps all its figures ("000" of "EUR 42,000" is in "EUR 9,000" too)."""
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "The Lisbon offer is EUR 42,000 a year base plus EUR 9,000 a year for housing."),
        ("S2", 4, "user", "They came back with more. Base is now EUR 46,000 a year. Please drop the old base figure."),
    ])
    units = stored(system, "units")
    assert residue(system, "42,000") == []
    assert "EUR 46,000 a year base plus EUR 9,000 a year for housing" in units


def test_how_much_i_lent_him_is_the_sum_not_the_sentence_that_names_him(tmp_path: Path) -> None:
    """"how much I lent him" after "The Tomasz thing": the sentence that writes the sum (said
    of him by "him" after the one naming him), not the one that only names Tomasz, who stays —
    nor is that one "what the money was for", when memory says "money" where it means it."""
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "Tomasz Wrona, my old flatmate, asked for help. I sent him £2,300 by bank transfer on 3 May."),
        ("S1", 0, "user", "He needed the money for rent arrears."),
        ("S1", 0, "user", "Tomasz Wrona is moving to Gdansk in June for a job at the port."),
        ("S2", 6, "user", "The Tomasz thing: please delete how much I lent him and what the money was for."),
    ])
    assert residue(system, "2,300") == []
    assert "Tomasz Wrona" in ask(system, "Which old flatmate asked me for help?")
    assert "Gdansk" in ask(system, "Where is Tomasz Wrona moving in June?")


def test_the_figure_asked_for_is_the_part_whose_sum_it_is_in_any_currency(tmp_path: Path) -> None:
    """Both parts write a sum ("PHP 38,000 a month", "9,000 dirhams a month"): the figure from
    the new job is the new offer's, and the other part stays."""
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "My brother Paolo earns PHP 38,000 a month in Manila, and the new offer from Dubai is "
                          "9,000 dirhams a month."),
        ("S2", 5, "user", "Paolo asked me to keep his pay private. I told you the figure from his new job; please remove it."),
    ])
    assert residue(system, "9,000") == []
    assert "38,000" in ask(system, "How much does Paolo earn a month in Manila?")


def test_my_own_health_leaves_a_sentence_that_goes_on_about_my_mother(tmp_path: Path) -> None:
    """"Booked with the panel physician … on 12 March." names no one: it is Mum's medical, as
    the sentences before it in the turn say, when the request keeps Mum's."""
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "I was diagnosed with IBS in December and I'm on mebeverine now."),
        ("S2", 2, "user", "Visa news. My mum needs an immigration medical. Booked with the panel physician in "
                          "Guangzhou on 12 March."),
        ("S2", 3, "user", "Michelle (spouse, dental hygienist) had a T4 income of $96,500."),
        ("S3", 4, "user", "Please remove everything health-related about me, but keep my mum's medical."),
    ])
    assert residue(system, "IBS", "mebeverine") == []
    assert "12 March" in stored(system, "units")
    assert "96,500" in stored(system, "units")  # (a spouse is someone else too)


def test_an_exceptions_label_keeps_what_follows() -> None:
    from bemula.systems.erasemem.intent import parse_forget_request
    from bemula.systems.erasemem.resolve import exceptions_of

    intent = parse_forget_request("Cleanup:\n- Remove everything health-related about me.\n- Exceptions: keep Dad's inhaler.")
    assert intent is not None and exceptions_of(intent) == ["Dad's inhaler"], intent


def test_a_terse_line_after_news_of_someone_is_still_my_own_health(tmp_path: Path) -> None:
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "My sister came over with the kids. Started sertraline last week, 50 mg."),
        ("S2", 3, "user", "Please remove everything health-related about me."),
    ])
    assert residue(system, "sertraline") == []


def test_a_label_and_its_value_is_a_sentence_of_its_own() -> None:
    from bemula.systems.erasemem.textutil import split_sentences

    assert split_sentences("Update: the scan was clear.\nMain topic: condo assignment.") == [
        "Update: the scan was clear.", "Main topic: condo assignment."]
    # (a short remark still goes with the sentence before it)
    assert len(split_sentences("The flat is on Corve Street. Just keep that in mind.")) == 1


def test_a_bulleted_list_is_its_items_with_a_bracket_that_keeps_one_out(tmp_path: Path) -> None:
    """Each bullet after "…:" is an item however it starts ("• mum's score …"); a bracket
    "(NOT the inhaler, keep that)" keeps the inhaler; a score is written "23/30"."""
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "took mum to the memory clinic at St Luke's\n- Dr. Osei (geriatrics). early vascular dementia\n"
                          "- MMSE 23/30. struggled with recall\n- she still does her own shopping"),
        ("S2", 2, "user", "- nurse started me on montelukast 10 mg last week\n- salbutamol inhaler stays in my gym bag"),
        ("S3", 5, "user", "housekeeping. a couple of things i'd rather you didn't keep:\n"
                          "  • the tablet the nurse started me on (NOT the inhaler, keep that one)\n"
                          "  • mum's score from the memory clinic"),
    ])
    assert residue(system, "23/30", "montelukast") == []
    assert "salbutamol" in stored(system, "units")
    assert "own shopping" in stored(system, "units")


def test_a_name_given_outright_is_found_when_the_messages_other_names_lead_elsewhere(tmp_path: Path) -> None:
    """"Forget Larch and Alder": the names the rest of the message gives (Beech House, Toxteth)
    lead to other sentences; "Larch" is still the sentence that says it."""
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "Dad's been at 9 Larch Road for forty years but the hill is too much for him now."),
        ("S1", 1, "user", "He got a place at 4 Alder Court in the end. His carer Rosa Diaz sorted it."),
        ("S2", 5, "user", "Alder Court flooded so he's in Flat 2, Beech House in Toxteth now. Forget Larch and Alder, "
                          "I only want the current one."),
    ])
    assert residue(system, "Larch", "Alder") == []
    assert "Rosa Diaz" in stored(system, "units")


def test_the_amount_of_a_pension_is_its_sum_and_it_is_paid_is_a_statement_of_its_own(tmp_path: Path) -> None:
    """"the amount of my state pension" is the sum memory writes (it never says "amount");
    ", and it is paid every fourth Wednesday …" is no predicate of the sum's part, and the
    words beside the sum ("pension", "after tax") stay in the other sentences."""
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "My state pension reference is SP 2231 8840."),
        ("S1", 1, "user", "The pension comes to £812.40 a month after tax, and it is paid every fourth Wednesday into my "
                          "Nationwide account."),
        ("S2", 3, "user", "Please forget the amount of my state pension. The reference and the payment day may stay."),
    ])
    units = stored(system, "units")
    assert residue(system, "812.40", "£812.40") == []
    assert "fourth Wednesday" in units and "state pension reference is SP 2231 8840" in units


def test_the_date_given_for_a_postponed_operation_is_its_date(tmp_path: Path) -> None:
    """"the date I gave you for it" after "they've postponed the op": "it" is the op, said
    "hip replacement surgery" in memory, and the date goes in both spellings; the hospital and
    the physio date stay."""
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "My hip surgery at Royal Derby is booked for 4/12. Physio starts on 20 January."),
        ("S1", 0, "assistant", "Noted: surgery on 4th December at Royal Derby."),
        ("S2", 6, "user", "The hospital rang and they've postponed the op. Please forget the date I gave you for it."),
    ])
    assert residue(system, "4/12", "4th December") == []
    assert "Royal Derby" in stored(system, "units") and "20 January" in stored(system, "units")


def test_his_home_address_is_where_he_is_staying_and_his_job_stays(tmp_path: Path) -> None:
    """"not to share his home address with anyone": the part "he's staying at Flat B-12 …"
    goes; "he's joined Orbit Labs" stays; "with anyone" is no part of the target, and "b" of
    "B-12" is no value to blank everywhere."""
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "My cousin Arjun just shifted to Pune — he's staying at Flat B-12, Lotus Heights, Kothrud, "
                          "and he's joined Orbit Labs in Baner as a tech lead."),
        ("S1", 1, "user", "His bike is a Bajaj Pulsar, plate MH 12 AB 4417."),
        ("S2", 4, "user", "Arjun told me not to share his home address with anyone. Please drop that bit from your memory."),
    ])
    units = stored(system, "units")
    assert residue(system, "Lotus Heights", "Kothrud") == []
    assert "Orbit Labs" in units and "MH 12 AB 4417" in units


def test_her_new_tablets_the_ones_for_her_mood_are_the_drug_named_after_her(tmp_path: Path) -> None:
    """", the ones the GP put her on for her mood" says which tablets, it is no second item;
    "she's started on citalopram" is Priya's (named in the exchange before), and of its parts
    the one naming the drug goes, not "the GP said …"; the iron tablets stay."""
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "Priya's GP, Dr Lowe, has put her on Ferrous Fumarate, one a day, for the anaemia."),
        ("S2", 3, "assistant", "How is Priya doing this week?"),
        ("S2", 3, "user", "she saw Dr Lowe yesterday about the low mood. she's started on citalopram, 20 mg, the GP said "
                          "it takes a few weeks to kick in."),
        ("S3", 6, "user", "the thing I told you about Priya's new tablets, the ones the GP put her on for her mood. "
                          "I'd rather you didn't hold on to that."),
    ])
    assert residue(system, "citalopram") == []
    assert "Ferrous Fumarate" in stored(system, "units")


def test_the_rating_the_one_on_the_website_goes_and_the_listed_exceptions_each_stay(tmp_path: Path) -> None:
    """"The rating from March, the one on the website …" is one thing (memory says "Result: …
    on the internet"); "The date, the boiler story, the follow-up, all that you can keep" keeps
    each of them, the date's sentence too."""
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "Tuesday 3 March, mid-service, the hygiene inspector came with her clipboard."),
        ("S1", 0, "user", "The boiler was leaking so the hot water failed the check."),
        ("S1", 0, "user", "Result: 'Improvement necessary' on the Scores on the Doors page, for everybody on the internet."),
        ("S2", 9, "user", "The rating from March, the one on the website that upset me — please take it out of your "
                          "memory. The date, the boiler story, the follow-up, all that you can keep."),
    ])
    units = stored(system, "units")
    assert residue(system, "Improvement necessary") == []
    assert "3 March" in units and "boiler was leaking" in units


def test_a_unit_of_measure_is_no_value_to_blank_everywhere(tmp_path: Path) -> None:
    """"mg" of a removed dose is every dose's: Dad's "amlodipine 5 mg" keeps it."""
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "Maya has started on citalopram, 20 mg, and she's off to Leeds for uni in September."),
        ("S1", 1, "user", "Dad takes amlodipine 5 mg every morning for his blood pressure."),
        ("S2", 4, "user", "Please forget the tablets Maya has started on."),
    ])
    assert residue(system, "citalopram") == []
    assert "amlodipine 5 mg" in stored(system, "units") and "Leeds" in stored(system, "units")


def test_who_did_it_in_a_target_is_no_value(tmp_path: Path) -> None:
    """"the tablets Maya has started on": Maya is who, not what; her other facts keep her name."""
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "Maya has started on citalopram, 20 mg, and she's off to Leeds for uni in September."),
        ("S1", 1, "user", "Maya's flat in Leeds is on Hyde Park Road."),
        ("S2", 4, "user", "Please forget the tablets Maya has started on."),
    ])
    assert residue(system, "citalopram") == []
    assert "Maya's flat" in stored(system, "units")


def test_a_window_keeps_what_the_request_excepts(tmp_path: Path) -> None:
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "Long night after the gig. I told the drummer I'm thinking of quitting the band."),
        ("S1", 1, "user", "The studio session with the producer is on 6 April at noon."),
        ("S2", 30, "user", "Lunch now. What I told you on March 2nd: I'd rather you didn't keep any of that. "
                           "The only thing I still need is the studio session, keep that one."),
    ])
    assert "6 April" in ask(system, "When is the studio session with the producer?")
    assert "quitting" not in " ".join(u.text for u in system.store.units.values())


def test_forget_x_is_a_request_only_when_memory_holds_x(tmp_path: Path) -> None:
    """"Forget the semicolons; just use full stops" is about a draft, not about memory: no
    sign of a personal object and nothing stored about semicolons. "Forget the espresso" is."""
    system = make(tmp_path)
    feed(system, BASE + [("S4", 5, "user", "Forget the semicolons; just use full stops in this paragraph.")])
    assert system.stats()["requests_detected"] == 0
    feed(system, [("S5", 6, "user", "Forget the espresso, by the way.")])
    assert system.stats()["requests_detected"] == 1
    assert "espresso" not in ask(system, "What do I drink every morning before work?")


def test_a_phrase_that_fits_many_units_deletes_only_the_best_few(tmp_path: Path) -> None:
    """A request whose words are a speaker's filler matches every unit that repeats it; a
    named fact is stated a few times, so at most three units go, never all of them."""
    system = make(tmp_path)
    feed(system, [(f"S{i}", i, "user", f"Bit random, but my hobby number {i} is kite surfing near pier {i}.")
                  for i in range(8)] + [("S9", 9, "user", "Please forget bit random.")])
    kept = [r for r in system.dump() if r.store == "units" and "kite" in r.text]
    assert len(kept) >= 5


def test_an_update_that_sets_the_old_value_against_the_new_one_removes_that_value(tmp_path: Path) -> None:
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "The dentist moved me to Tuesday March 3, 10:15am, at the Elm Street practice."),
        ("S1", 0, "user", "My sister's wedding is on Saturday June 6."),
        ("S2", 5, "user", "The practice rang again: it's March 10 now, not March 3, same time. Please scrap the old date."),
    ])
    dumped = stored(system, "units", "turns")
    assert "March 3" not in dumped and "March 10" in dumped
    assert "June 6" in dumped and "Elm Street" in dumped  # only the old value's words went


def test_an_updated_code_finds_the_old_code_of_the_same_shape(tmp_path: Path) -> None:
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "There's a keysafe by the back door for the carers."),
        ("S1", 0, "user", "Code's 4471, in case I forget it again."),
        ("S1", 0, "user", "My gym locker is number 218 and my PIN for it is 9035."),
        ("S2", 3, "user", "We've had the keysafe code changed. It's 2093 now. Scrap the old one completely."),
    ])
    dumped = stored(system, "units", "turns")
    assert "4471" not in dumped and "2093" in dumped
    assert "9035" in dumped  # another code, of another thing
    assert "back door" in dumped  # where the keysafe is was not replaced: only the code was


def test_the_old_one_is_the_earlier_name_beside_the_attributes_words(tmp_path: Path) -> None:
    # "the old one" names nothing: the old value is the earlier *name* (the new value is a
    # name) in the sentence that says the attribute ("bank"); only its own words go
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "My salary goes into my account at Harbourline Bank."),
        ("S1", 0, "user", "The Harbourline Bank app logged me out again mid-transfer."),
        ("S1", 0, "user", "My sister Ottilie banks with Corvin Mutual and loves it."),
        ("S1", 0, "user", "The bank holiday traffic was awful on the way to Leeds."),
        ("S2", 4, "user", "Things moved on and which bank I use ended up being Fenwick Savings Bank. "
                          "Whatever you had before is out of date, so do not use it."),
    ])
    dumped = stored(system, "units", "turns")
    assert "Harbourline" not in dumped and "Fenwick Savings Bank" in dumped
    assert "Corvin Mutual" in dumped  # a name beside "banks", but not the attribute's sentence-mate
    assert "bank holiday" in dumped and "Leeds" in dumped  # the attribute's word stays elsewhere


def test_the_old_one_stays_when_two_earlier_names_fit_equally(tmp_path: Path) -> None:
    # two different podcasts said the same way: which one was replaced is unknown, so
    # neither is deleted (a wrong guess would lose a kept fact and keep the old value)
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "My podcast on the commute is Radiolab."),
        ("S1", 0, "user", "My podcast at the gym is Darknet Diaries."),
        ("S2", 2, "user", "My podcast switched to Reply All, so forget the old one."),
    ])
    dumped = stored(system, "units")
    assert "Radiolab" in dumped and "Darknet Diaries" in dumped


def test_an_update_of_weekdays_replaces_the_earlier_weekdays(tmp_path: Path) -> None:
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "I lift on Mondays and Thursdays before work."),
        ("S1", 0, "user", "Choir practice is on Sunday evenings."),
        ("S2", 6, "user", "The days I lift changed to Tuesdays and Fridays, so please forget the old ones."),
    ])
    dumped = stored(system, "units", "turns")
    assert "Mondays and Thursdays" not in dumped and "Tuesdays and Fridays" in dumped
    assert "Sunday evenings" in dumped


@pytest.mark.parametrize("request_text", [
    "Wait, what I just told you, can you not hold on to that?",
    "Let's leave what I just told you out of your notes.",
    "Please don't save the thing I mentioned a minute ago.",
    "Scrap the personal detail in my last message.",
])
def test_what_i_just_told_you_is_the_last_user_turn(tmp_path: Path, request_text: str) -> None:
    # a back-reference to the message before: its statement about the user goes, not its
    # question, and not what was said earlier in the session
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "My allotment plot is number 14 at Gorse Hill."),
        ("S1", 0, "assistant", "Nice, plot 14 at Gorse Hill."),
        ("S1", 0, "user", "Is clay soil bad for carrots? My therapist is Dr Anselm Vey."),
        ("S1", 0, "assistant", "Clay can fork carrots; Dr Vey sounds like a good support."),
        ("S1", 0, "user", request_text),
    ])
    dumped = stored(system, "units", "turns")
    assert "Anselm" not in dumped and "Vey" not in dumped
    assert "Gorse Hill" in dumped and "carrots" in dumped


def test_a_unit_with_only_the_head_noun_is_a_neighbour_not_the_target(tmp_path: Path) -> None:
    # "the number from my passport": "number" says which kind of fact, "passport" which one
    system = make(tmp_path)
    # "passport" is said more often than "number", so the file number's one shared word
    # weighs more than half of the phrase: only the head-noun rule keeps it
    feed(system, [
        ("S1", 0, "user", "The file number the council gave me is STR-26/09183."),
        ("S1", 0, "user", "My passport is GK482913, it expires next spring."),
        ("S1", 0, "user", "The passport office in Mitte was slow."),
        ("S1", 0, "user", "I need a new passport photo as well."),
        ("S1", 0, "user", "My cat sleeps on the radiator all day."),
        ("S2", 1, "user", "Please forget the number from my passport."),
    ])
    dumped = stored(system, "units", "turns")
    assert "STR-26/09183" in dumped


def test_a_category_requests_exception_does_not_add_its_own_category(tmp_path: Path) -> None:
    # "my relatives, apart from my father's occupation": the request is about family, and
    # the exception's word ("occupation") must not make it about work too
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "My aunt Perpetua lives in Galway with her three dogs."),
        ("S1", 0, "user", "My father works as a ferry engineer."),
        ("S1", 0, "user", "I work night shifts at the sorting office on Dale Road."),
        ("S2", 2, "user", "Wipe anything about my relatives, apart from my father's occupation."),
    ])
    dumped = stored(system, "units")
    assert "Perpetua" not in dumped
    assert "Dale Road" in dumped  # the user's own job is no relative's


def test_a_category_exception_keeps_the_same_word_in_another_form(tmp_path: Path) -> None:
    # "the one exception is the allergy": the unit says "allergic"; and a friend's migraine
    # after "Tangent:" is hers, not part of "my health"
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "For the dinner: I'm allergic to crustaceans, shrimp and crab especially."),
        ("S1", 0, "user", "My GP has me on sertraline every morning."),
        ("S1", 0, "user", "Tangent: Julia had a bad migraine today."),
        ("S2", 2, "user", "Please don't keep any of the health stuff. The one exception is the allergy."),
    ])
    dumped = stored(system, "units")
    assert "sertraline" not in dumped
    assert "crustaceans" in dumped
    assert "Julia had a bad migraine" in dumped


def test_a_time_of_day_is_not_a_break_between_two_facts(tmp_path: Path) -> None:
    # "April 2 at 15:15 is when …": the colon of 15:15 does not split the sentence, and the
    # value words are the date's (not "dentist", the word the request used)
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "April 2 at 15:15 is when I'm next in the dentist's chair."),
        ("S1", 0, "assistant", "Noted: the dentist on April 2 at 15:15."),
        ("S1", 0, "user", "My GP surgery is on Carver Street, by the library."),
        ("S2", 3, "user", "Please forget my dentist appointment."),
    ])
    dumped = stored(system, "units", "turns")
    assert "April 2" not in dumped
    assert "Carver Street" in dumped


def test_a_conversation_named_by_its_topic_is_forgotten_whole(tmp_path: Path) -> None:
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "I want to plan the allotment beds for spring: potatoes, leeks, broad beans."),
        ("S1", 0, "user", "My allotment neighbour Dorota swaps seeds with me."),
        ("S2", 3, "user", "My landlord Mr Achebe is raising the rent in May."),
        ("S3", 5, "user", "Please delete our conversation about planning the allotment beds."),
    ])
    dumped = stored(system, "units")
    assert "Dorota" not in dumped and "potatoes" not in dumped
    assert "Achebe" in dumped


def test_a_value_blanked_in_a_restating_sentence_is_blanked_in_its_turn_too(tmp_path: Path) -> None:
    # the restating turn's own text, not only its memory unit: what the user said is stored
    # twice, and both must lose the value
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "My pension fund is Lindqvist Retirement Fund, set up by my old employer Kestrel Foods."),
        ("S2", 2, "user", "I'm thinking about topping up what goes into Lindqvist Retirement Fund. Is that wise at 40?"),
        ("S3", 4, "user", "Please forget my pension fund."),
    ])
    stores = {r.store for r in system.dump() if "Lindqvist" in r.text}
    assert not stores, stores


def test_a_kept_sentence_is_found_by_what_its_turn_is_about(tmp_path: Path) -> None:
    """"He's paying £60 a week towards it" names neither Dad nor the day centre; its turn
    does. Words of the question found only in the rest of the turn count half, so the kept
    sentence outranks the tombstone of the forgotten loan, which shares "Tunde" and
    "towards" with the question just as the sentence does (a tie the tombstone won, being
    newer). "Dad", "day" and "centre" are common in this memory, so the sentence that names
    the centre is not enough on its own."""
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "Dad is going to a day centre in Levenshulme two days a week. Tunde, my brother, "
                          "lives in Leeds, so he's paying 60 pounds a week towards it."),
        *[("S1", 0, "user", text) for text in (
            "The day centre minibus collects Dad at nine.",
            "Dad says the day centre lunches are better than mine.",
            "Dad played dominoes all day at the centre.",
            "The day centre shuts on bank holidays, so Dad stays home.",
            "Dad came back from the centre with a painted mug.",
            "The centre manager says Dad is settling in.",
        )],
        ("S2", 1, "user", "Tunde's offered to lend me 500 pounds towards the car."),
        ("S3", 2, "user", "Could you forget the bit about Tunde lending me money for the car?"),
    ])
    assert "60 pounds" in ask(system, "How much does Tunde put towards Dad's day centre?")
    assert ask(system, "How much is Tunde lending me for the car?") == NOT_AVAILABLE


def test_a_category_request_blanks_the_names_its_units_held_wherever_they_are_said_again(tmp_path: Path) -> None:
    """"If anyone got me through school, it was Mr. Oduya" is about education; "I still have
    a note Mr. Oduya wrote on one of my essays" is, by its words, about nothing the lexicon
    knows. Forgetting the education deletes the first and blanks the name the second
    repeats; the rest of memory stays."""
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "I have got a bit of spare time and I would like to learn properly. "
                          "If anyone got me through school, it was Mr. Oduya."),
        ("S2", 1, "user", "I still have a note Mr. Oduya wrote on one of my essays."),
        ("S2", 1, "user", "My sister Ines lives in Porto."),
        ("S3", 2, "user", "Forget all the details of my education."),
    ])
    assert residue(system, "Oduya") == []
    assert "Porto" in ask(system, "Where does my sister Ines live?")


def test_generic_words_of_a_target_do_not_outweigh_its_specific_ones(tmp_path: Path) -> None:
    """"what I take when an aura starts" is about the aura: "take" and "start" are rare in
    this memory but say nothing of which fact, so the train unit that holds both is not the
    target. "My favourite plant" is not "my favourite teacher", however rare "favourite" is
    (the plant's own unit, without "favourite", is not found either: a known gap)."""
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "At the first sign of an aura, rizatriptan 10 mg is what works for me."),
        ("S1", 0, "user", "I take the early train and start at the depot by seven."),
        ("S2", 1, "user", "My favourite teacher was Mrs Abernathy."),
        ("S2", 1, "user", "Of all my plants, the string of pearls is the one I'd hate to lose."),
        ("S3", 2, "user", "Please don't keep what I take when an aura starts."),
        ("S3", 2, "user", "Could you forget my favourite plant?"),
    ])
    assert residue(system, "rizatriptan") == []
    units = " ".join(u.text for u in system.store.units.values())
    assert "early train" in units and "Abernathy" in units


def test_a_new_email_address_replaces_the_one_other_address_the_user_gave(tmp_path: Path) -> None:
    """"That's my personal inbox sorted" names no word of "anything non-work should go to
    …": an address is its own kind, and the user gave one other."""
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "Anything non-work should go to orchid.bay@posteo.net."),
        ("S1", 0, "user", "My brother Emeka lives in Lagos."),
        ("S2", 1, "user", "I went with tamsin.vale@gmx.net in the end, so that's my personal inbox sorted; "
                          "the old one does not apply any more."),
    ])
    assert residue(system, "orchid.bay@posteo.net", "posteo") == []
    assert "tamsin.vale@gmx.net" in " ".join(u.text for u in system.store.units.values())
    assert "Lagos" in ask(system, "Where does my brother Emeka live?")


def test_my_car_model_is_not_my_phone_model(tmp_path: Path) -> None:
    """The update names the car's model; "My phone model is the Pixel 8a" has the attribute's
    head word with another thing's name before it, so it is not the old value."""
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "My phone model is the Pixel 8a."),
        ("S1", 0, "user", "I drive a Skoda Octavia estate, nothing fancy."),
        ("S2", 1, "user", "Things shifted a while back and my car model ended up being Toyota Yaris hybrid. "
                          "Whatever you had before is out of date."),
    ])
    assert "Pixel 8a" in ask(system, "What phone model do I have?")


def test_an_update_keeps_what_the_request_excepts(tmp_path: Path) -> None:
    """"now I'm paranoid" reads as a change; whatever the request is read as, the alarm code
    it says to keep stays."""
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "I got a new debit card and set the pin to 0619."),
        ("S1", 0, "user", "The alarm code at work is 2206, I always blank on it when I'm closing alone."),
        ("S2", 1, "user", "my flatmate says it's risky telling a chatbot my pin and now im paranoid lol. "
                          "can you stop keeping my pin. the alarm code for work you can keep though"),
    ])
    assert "2206" in ask(system, "What's the alarm code at work?")


def test_a_new_address_replaces_the_whole_old_one_and_not_the_word_address(tmp_path: Path) -> None:
    """The old address is found by the new one's house-number shape; every word of it goes
    (not only "2417"), and "address", which the new value's statement says, is no value."""
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "For the lease: address is 2417 St. Claude Avenue, apartment B, that's the upstairs."),
        ("S1", 0, "user", "The studio's address is 9 Frenchmen Street, we rehearse there Tuesdays."),
        ("S2", 1, "user", "got keys Friday, hauled everything Saturday. new address is 1814 Bayou Road. "
                          "use Bayou Road for everything from now on. so the old place is done, "
                          "you don't need to keep that address for anything anymore."),
    ])
    assert residue(system, "2417", "Claude") == []
    assert "Frenchmen" in ask(system, "What's the studio's address?")
    assert "1814 Bayou Road" in " ".join(u.text for u in system.store.units.values())


def test_an_old_date_goes_in_every_spelling(tmp_path: Path) -> None:
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "His appointment at the consulate on Wilshire is Thursday April 23, 9:30am."),
        ("S1", 0, "user", "busy month: - 4/11 San Diego - 4/23 Joon's consulate appt - 4/30 dentist"),
        ("S2", 1, "user", "the consulate moved his appointment. it's May 7 now, not April 23, same 9:30 slot. "
                          "so scrap the old date everywhere."),
    ])
    assert residue(system, "April 23", "4/23") == []
    assert "4/30" in " ".join(u.text for u in system.store.units.values())


def test_the_part_that_writes_the_number_out_is_the_one_that_goes(tmp_path: Path) -> None:
    """One message names the kind ("passport number and Steuer-ID. Is normal?") and then gives
    it ("My passport is GK482913"): the request for the number removes the part with the code."""
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "The landlord form asks many things: salary, employer, and also passport number and "
                          "Steuer-ID. Is normal? My passport is GK482913, I keep it in the desk drawer."),
        ("S2", 1, "user", "Please don't keep the number from my passport anymore."),
    ])
    assert residue(system, "GK482913") == []


def test_what_a_category_request_keeps_keeps_its_value_everywhere_it_is_kept(tmp_path: Path) -> None:
    """The passport number is kept; a deleted identity statement that repeats it must not
    blank it in the kept one."""
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "The number on my passport's photo page is NX4481972."),
        ("S1", 0, "user", "My shoe size is EU 38, annoyingly hard to find."),
        ("S2", 1, "user", "I double-checked NX4481972 against the actual passport."),
        ("S3", 2, "user", "Let go of my ID numbers and personal basics, though please keep my passport number — "
                          "I rely on you for that one."),
    ])
    assert "NX4481972" in ask(system, "What's my passport number?")
    assert residue(system, "EU 38") == []


def test_what_i_just_told_you_is_the_statement_about_me_not_the_one_about_cuttings(tmp_path: Path) -> None:
    """The last message says something about the cuttings, asks a question, and says
    something about the user: only the last is what was shared."""
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "An old friend called me Sprocket at the reunion."),
        ("S1", 0, "user", "Going back to the cuttings, they are sitting in a jar on the windowsill. How will I "
                          "know they are ready to plant? If anyone calls me Sprocket at the wedding I will hide."),
        ("S1", 0, "assistant", "Expect roots in one to three weeks."),
        ("S1", 0, "user", "Let's leave what I just told you out of your notes, if that is alright."),
    ])
    assert residue(system, "Sprocket") == []
    assert "windowsill" in " ".join(u.text for u in system.store.units.values())


def test_my_birthday_is_never_a_friends_birthday(tmp_path: Path) -> None:
    """Only a friend's birthday says "birthday"; "my birthday" is not it, so nothing of the
    friend's goes (the user's own, said as "the day I was born", is a known miss)."""
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "Planning a surprise dinner for a friend's birthday, roughly ten guests."),
        ("S1", 0, "user", "The day I was born was July 23, so cake usually shows up around then."),
        ("S2", 1, "user", "Please forget my birthday."),
    ])
    assert "surprise dinner" in " ".join(u.text for u in system.store.units.values())


def test_a_word_memory_never_says_is_found_as_its_everyday_synonym(tmp_path: Path) -> None:
    """"Who looks after my teeth" names no word of "My dentist is Dr Haas on Mill Road";
    "teeth" and "dentist" are one group in data/attribute_synonyms.txt, and without it the
    request's other words ("looks after") would pick a unit about something else."""
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "My dentist is Dr Haas on Mill Road."),
        ("S1", 0, "user", "My neighbour looks after the cat when we go away, after a lot of persuading."),
        ("S2", 1, "user", "Please forget who looks after my teeth."),
    ])
    assert residue(system, "Haas") == []
    assert "persuading" in " ".join(u.text for u in system.store.units.values())


def test_kin_words_are_one_group_so_a_nan_is_found_as_the_grandma(tmp_path: Path) -> None:
    """"Who my nan is" names no word of "My grandma Edith still bakes every Sunday"; nan, gran
    and grandma are one group in data/attribute_synonyms.txt. Without it "who … is" picks
    nothing, and Edith stays; the neighbour, another name, is kept."""
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "My grandma Edith still bakes every Sunday, mostly scones."),
        ("S1", 0, "user", "My neighbour Edwin fixes bikes in his garage."),
        ("S2", 1, "user", "Please forget who my nan is."),
    ])
    assert residue(system, "Edith") == []
    assert "Edwin" in ask(system, "Who is my neighbour?")


def test_an_update_finds_the_old_airline_said_as_flights(tmp_path: Path) -> None:
    """"My favourite airline is now Finnair, forget the old one": the old value was said
    "most of my flights are with Icelandair"; airline and flights are one group, so the
    old airline goes. Without the group, the trip to Reykjavik (travel, as much) tied with it
    and nothing went; it stays, as does the dentist."""
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "Most of my flights are with Icelandair, by choice."),
        ("S1", 0, "user", "I'm saving up for a trip to Reykjavik in March."),
        ("S1", 0, "user", "My dentist is Dr Moreau in Lyon."),
        ("S2", 1, "user", "My favourite airline is now Finnair, so forget the old one."),
    ])
    assert residue(system, "Icelandair") == []
    assert "Reykjavik" in ask(system, "Where am I saving up to go?")
    assert "Moreau" in ask(system, "Who is my dentist?")
    assert "Finnair" in ask(system, "Which airline do I like?")


def test_every_rare_word_of_a_trimmed_part_is_its_value(tmp_path: Path) -> None:
    """The part that goes ("not available on Mondays because of childcare") is one fact;
    its rarest word is "childcare", but "Mondays" is its value as much and goes everywhere."""
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "For tutoring: I'm not available on Mondays because of childcare, but Thursday afternoons "
                          "are always free."),
        ("S1", 0, "user", "Mondays are chaos anyway, and the childcare run takes an hour."),
        ("S2", 1, "user", "Please forget that I'm not available on Mondays because of childcare."),
    ])
    assert residue(system, "Mondays") == []
    assert "Thursday" in ask(system, "When am I always free for tutoring?")


def test_unavailable_is_said_as_not_available(tmp_path: Path) -> None:
    """"The day I'm unavailable" is said "not available on Wednesdays": a word memory never
    says, with "un", is its stem beside a negation. Only that part goes; Saturday stays."""
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "For choir: I'm not available on Wednesdays because of night class, but Saturday "
                          "mornings are always free."),
        ("S1", 0, "user", "Rehearsals are 90 minutes at the church hall on Bell Street."),
        ("S2", 1, "user", "Please forget the day I'm unavailable."),
    ])
    assert residue(system, "Wednesdays") == []
    assert "Saturday" in ask(system, "When am I always free for choir?")


def test_a_weekday_with_no_conversation_is_that_weekday_in_an_earlier_week(tmp_path: Path) -> None:
    """"the friday, around 3am, a few weeks back": last Friday had no conversation, three
    Fridays before it one at 03:10; the time said nearest the request is meant, not the
    "tonight" of the message's small talk."""
    system = make(tmp_path)
    turns = [
        (datetime(2026, 3, 6, 3, 10), "S1", "Up late again. I applied for the deputy head job at Northfield Academy."),
        (datetime(2026, 3, 16, 10, 0), "S2", "My sister's flat is on Carden Road."),
        (datetime(2026, 3, 26, 10, 0), "S3", "Thursday check-in: the boiler engineer comes on the 2nd."),
        (datetime(2026, 3, 29, 20, 0), "S4", "We ate at the table tonight, like adults. Remember when I was awake half "
                                             "the night, the thursday, wait, no, the friday, around 3am, a few weeks "
                                             "back. "
                                             "That whole conversation. I want you to forget it, all of it."),
    ]
    for when, sid, text in turns:
        system.ingest(TurnEvent("user", text, sid, when))
    assert system.stats()["receipts"][0]["request_kind"] == "F5"
    assert ask(system, "Which job did I apply for?") == NOT_AVAILABLE
    assert "Carden" in ask(system, "Where is my sister's flat?")
    assert "boiler" in ask(system, "When does the boiler engineer come?")


def test_a_specialist_and_a_licence_are_found_under_their_usual_names(tmp_path: Path) -> None:
    """"the specialist who manages my migraines" is the neurologist; "what happened with my
    license" is the CDL (``data/attribute_synonyms.txt``)."""
    system = make(tmp_path)
    feed(system, BASE + [
        ("S4", 5, "user", "My neurologist is Dr. Aalto at the Westgate clinic."),
        ("S4", 5, "user", "Back in 2011 they pulled my CDL for a year after a speeding ban."),
        ("S4", 5, "user", "My dentist is Dr. Moreau."),
        ("S5", 9, "user", "Please don't keep the name of my specialist, or what happened back then with "
                          "my license."),
    ])
    assert "Aalto" not in ask(system, "What's the name of my neurologist?")
    assert "speeding" not in ask(system, "Why was my CDL pulled back in 2011?")
    assert "Moreau" in ask(system, "Who is my dentist?")


def test_an_update_restates_the_sentence_that_stated_the_value(tmp_path: Path) -> None:
    """The statement ("I keep all my logins in KeyVaultly.") is restated with the new value,
    not the latest sentence that merely mentions the old one; and "on my mind" in the request
    is no attribute ("My mind is …")."""
    system = make(tmp_path)
    feed(system, BASE + [
        ("S4", 5, "user", "I keep all my logins in KeyVaultly."),
        ("S4", 6, "user", "KeyVaultly filled in the wrong account again."),
        ("S5", 9, "user", "It's been on my mind: I finally switched, Bitwarden for the app with all the logins now, "
                          "so the old one can go."),
    ])
    units = [u.text for u in system.store.units.values()]
    assert "I keep all my logins in Bitwarden." in units, units
    assert not any("My mind" in u or "Bitwarden filled" in u for u in units), units
    assert "Bitwarden" in ask(system, "Where do I keep all my logins?")


def test_a_request_phrase_with_a_verb_inside_is_no_attribute(tmp_path: Path) -> None:
    """"what I feed my pets went over to Purrfect Harvest": the old statement's own "my pet
    food brand" is the attribute, not "my pets went over"."""
    system = make(tmp_path)
    feed(system, BASE + [
        ("S4", 5, "user", "My pet food brand is Wildcroft Kibble!"),
        ("S4", 6, "user", "I mixed a bit of warm water into the Wildcroft Kibble and they loved it."),
        ("S5", 9, "user", "With everything that changed recently, what I feed my pets went over to Purrfect Harvest; "
                          "the earlier one is no use anymore, so don't rely on it."),
    ])
    units = [u.text for u in system.store.units.values()]
    assert "My pet food brand is Purrfect Harvest." in units, units
    assert not any("pets went over is" in u for u in units), units


def test_a_bare_number_after_the_part_that_goes_goes_with_it(tmp_path: Path) -> None:
    """"My passport is GK482913 and the tax ID came by post last week, 57 392 048 161." — the
    number after the comma is the tax ID's value; trimming the part left it behind."""
    system = make(tmp_path)
    feed(system, BASE + [
        ("S4", 5, "user", "The form asks about salary, employer and pets. My passport is GK482913 and the tax ID "
                          "came by post last week, 57 392 048 161."),
        ("S5", 9, "user", "The number from my passport and my tax ID: I prefer you don't keep them anymore."),
    ])
    assert not residue(system, "57 392 048 161", "GK482913"), residue(system, "57 392 048 161", "GK482913")
    assert "salary" in " ".join(u.text for u in system.store.units.values())


def test_a_conversation_named_by_an_occasion_finds_that_session(tmp_path: Path) -> None:
    """"our chat the night of the charity quiz": no date, so the session is found by what
    happened in it; other sessions stay."""
    system = make(tmp_path)
    feed(system, BASE + [
        ("S4", 5, "user", "Back from the charity quiz. I told Priya I think the new director is a fraud."),
        ("S5", 8, "user", "My bike lock code is 7731."),
        ("S6", 9, "user", "our chat the night of the charity quiz, pls forget it. i was drunk"),
    ])
    assert system.stats()["receipts"][0]["request_kind"] == "F5"
    assert "fraud" not in " ".join(u.text for u in system.store.units.values())
    assert "7731" in ask(system, "What's my bike lock code?")


def test_a_pronoun_in_a_target_means_who_the_request_names() -> None:
    from bemula.systems.erasemem.resolve import without_pronoun

    said = ["I went on and on about Lucan's girlfriend last night, which was silly."]
    assert without_pronoun("her name", said, []) == "Lucan's girlfriend's name"
    assert without_pronoun("what she does for work", said, []) == "what Lucan's girlfriend does for work"
    assert without_pronoun("her address", ["My sister Ottilie moved last week."], []) == "Ottilie's address"
    # an object pronoun stays: the statement says it the same way ("I lent him £300")
    assert without_pronoun("the money I lent him", ["He is my brother."], []) == "the money I lent him"
    # "its" points at a thing named in the sentence that asks, not a person's possessive before
    assert without_pronoun("its order number", [], ["the kettle's here, you don't need its order number anymore"]) == \
        "the kettle's order number"
    assert without_pronoun("its name", ["Rory at the travel agent's rang."], ["please do not keep its name"]) == "its name"


def test_forgetting_someones_fact_named_by_pronoun(tmp_path: Path) -> None:
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "My colleague Ines covers for me on Fridays. Her mobile is 0612 334 556."),
        ("S1", 0, "assistant", "Noted."),
        ("S1", 0, "user", "My own mobile is 0687 120 993, if you need it for forms."),
        ("S2", 1, "user", "Ines asked me not to keep her details around, so please delete her mobile."),
    ])
    assert residue(system, "556") == []
    assert "0687 120 993" in ask(system, "What is my mobile number?")
    assert "Fridays" in ask(system, "Who covers for me on Fridays?")


def test_a_things_code_is_not_its_siblings(tmp_path: Path) -> None:
    # "the lamp's tracking number" is the one said with the lamp, not the chair's, which
    # says "tracking number" outright
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "two parcels coming. the armchair tracking number is QX5510098812"),
        ("S1", 0, "assistant", "Noted."),
        ("S1", 0, "user", "the reading lamp, QX5510098821."),
        ("S2", 1, "user", "the lamp's here so you dont need its tracking number anymore, forget it"),
    ])
    assert residue(system, "QX5510098821") == []
    assert "QX5510098812" in ask(system, "What's the tracking number for the armchair?")


def test_a_request_that_names_the_values_purges_those_and_not_the_rest_of_their_sentence(tmp_path: Path) -> None:
    # "Dr" is a title every doctor shares, and "optician" says what the values were: neither
    # is purged, so the daughter's optician and the new one stay
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "For years my optician was Dr Faraday at ClearSight, but I switched to Dr Amari at Lens & Co."),
        ("S1", 0, "assistant", "Noted."),
        ("S1", 0, "user", "My daughter Ngozi sees Dr Lindqvist, the children's optician at Lens & Co."),
        ("S2", 1, "user", "Could you forget about Dr Faraday and ClearSight? I'm never going back."),
    ])
    assert residue(system, "Faraday", "ClearSight") == []
    assert "Lindqvist" in ask(system, "Who is Ngozi's optician?")
    assert "Amari" in ask(system, "Who did I switch to?")


def test_what_a_request_says_to_keep_after_a_comma_is_its_exception() -> None:
    from bemula.systems.erasemem.intent import parse_forget_request
    from bemula.systems.erasemem.resolve import exceptions_of

    intent = parse_forget_request("Please forget Harlow Fitness and Penrith Leisure, just keep Tamsworth Gym.")
    assert intent is not None and exceptions_of(intent) == ["Tamsworth Gym"]
    intent = parse_forget_request("Delete my old addresses, and keep only the current one.")
    assert intent is not None and exceptions_of(intent) == ["the current one"]


def test_a_pronoun_agrees_with_whom_it_points_at() -> None:
    from bemula.systems.erasemem.intent import parse_forget_request
    from bemula.systems.erasemem.resolve import exceptions_of, without_pronoun

    said = ["My brother Tadhg moved out last month.", "Keep my sister's details."]
    assert without_pronoun("his number", said, []) == "Tadhg's number"
    assert without_pronoun("her number", said, []) == "my sister's number"
    # what stays is what the request names, not "the rest of the list"
    intent = parse_forget_request("Please delete his number. Keep Gran's and the rest of the list.")
    assert intent is not None and exceptions_of(intent) == ["Gran's"]


def test_an_acronym_in_a_request_names_the_kind_of_fact_and_is_not_purged(tmp_path: Path) -> None:
    # "my dad's GP details": GP says which kind of fact; the user's own GP sentence keeps it
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "My GP is Dr. Oona Feeney at Larch Road Surgery."),
        ("S1", 0, "assistant", "Noted."),
        ("S1", 0, "user", "My dad's GP is Dr. Piotr Walas at the Kelsall Health Centre."),
        ("S2", 1, "user", "Please forget my dad's GP details, he'd rather they weren't written down."),
    ])
    assert residue(system, "Walas", "Kelsall") == []
    assert "Feeney" in ask(system, "Who is my GP?")


def test_its_after_a_thing_the_user_is_closing_means_that_thing() -> None:
    from bemula.systems.erasemem.resolve import without_pronoun

    assert without_pronoun("its number", ["I'm closing the ISA account next month."], ["Please forget its number."]) == \
        "the ISA account's number"
    assert without_pronoun("its number", ["I love the ISA account."], ["Please forget its number."]) == "its number"


def test_but_with_continues_one_fact_rather_than_starting_another() -> None:
    from bemula.systems.erasemem.resolve import _PART_BREAK

    assert len(_PART_BREAK.split("The gate code is 4417 too but with a 2 on the end")) == 1
    assert len(_PART_BREAK.split("I don't eat pork, but chicken is fine")) == 2


def test_a_trim_removes_the_part_stating_the_value_not_the_one_naming_the_subject(tmp_path: Path) -> None:
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "A note on Project Wren: the sponsor is Ada Ruiz; the budget is €90,000."),
        ("S2", 1, "user", "Please forget the Wren budget figure, it's confidential."),
    ])
    assert residue(system, "90,000") == []
    assert "Project Wren" in stored(system, "units")


def test_the_details_of_a_thing_are_every_statement_about_it(tmp_path: Path) -> None:
    # "the Marlowe details": the long sentence with the account number as much as the short one
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "My rent is paid from my Marlowe Bank account, sort code 11-22-33, account number 55102938."),
        ("S1", 0, "assistant", "Noted."),
        ("S1", 0, "user", "I've moved my money to Quay Savings. The Marlowe account closes next month."),
        ("S2", 1, "user", "Please purge the Marlowe details entirely."),
    ])
    assert residue(system, "55102938", "Marlowe") == []
    assert "Quay Savings" in stored(system, "units")


def test_a_request_described_in_common_words_is_read_when_memory_holds_them(tmp_path: Path) -> None:
    # "what he takes" is all common words; memory holds "takes", so it is a request, and the
    # comment after the first object ("that's between us and the vet") is no target
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "Our cat Miso has a thyroid problem. He takes a quarter tablet of Felimazole twice a day, "
                          "and his vet is Dr. Ines Barros at Parkside Vets."),
        ("S2", 1, "user", "I don't want the medication stuff stored, that's between us and the vet. "
                          "Can you forget what he takes?"),
    ])
    assert residue(system, "Felimazole") == []
    assert "Barros" in stored(system, "units")


def test_forget_her_means_the_person_named_before_the_request() -> None:
    from bemula.systems.erasemem.intent import parse_forget_request
    from bemula.systems.erasemem.resolve import without_pronoun

    intent = parse_forget_request("My sister Orla is on leave and asked to be taken off the list. Please forget her "
                                  "completely. My aunt Maeve stays.")
    assert intent is not None and intent.targets == ["her"]
    assert without_pronoun("her", intent.statements, intent.directives, None, intent.text) == "Orla"


def test_two_peoples_emails_in_one_sentence_part_at_the_second_name(tmp_path: Path) -> None:
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "Orla's email is orla.byrne@kestrelmail.ie and Cian's is cian.walsh@harbourpost.ie"),
        ("S2", 1, "user", "Please forget Orla's email."),
    ])
    assert residue(system, "orla.byrne@kestrelmail.ie", "kestrelmail") == []
    assert "cian.walsh@harbourpost.ie" in stored(system, "units")


def test_forgetting_a_negated_fact_keeps_the_affirmed_one_beside_it(tmp_path: Path) -> None:
    # "the penicillin business": the head frames the request, "penicillin" is the value; the
    # kept "allergic to latex" shares "allergic" and is neither deleted nor blanked
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "Updating my health notes: I am NOT allergic to aspirin. An old GP wrote that by mistake."),
        ("S1", 0, "assistant", "Noted."),
        ("S1", 0, "user", "I am allergic to plasters though, properly. A rash within minutes."),
        ("S2", 1, "user", "You can forget the aspirin business entirely."),
    ])
    assert residue(system, "aspirin") == []
    assert "allergic to plasters" in ask(system, "Am I allergic to plasters?")



def test_a_name_texted_in_lower_case_is_who_her_means(tmp_path: Path) -> None:
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "booked!! my outbound is KL1023 on the 4th"),
        ("S1", 0, "assistant", "Saved."),
        ("S1", 0, "user", "my cousin Noor is flying separately on KL1032 the day after"),
        ("S2", 1, "user", "noor's cancelled so forget her flight number pls"),
    ])
    assert residue(system, "KL1032") == []
    assert "KL1023" in ask(system, "What is my outbound flight?")


def test_the_new_one_the_request_keeps_is_the_new_statement_of_the_attribute(tmp_path: Path) -> None:
    # "the old landlord name … The new one of course you keep": the new landlord's sentence
    # stays (even with a "he" about the old one in it) and answers "who is my landlord?"
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "My landlord was Mr Kovacs, he owned the flat on Alder Street."),
        ("S1", 0, "assistant", "Noted."),
        ("S1", 0, "user", "Now he sold the flat, the new landlord is a company, Brightwater Homes."),
        ("S2", 1, "user", "Please, I prefer you don't keep the old landlord name anymore. The new one of course you keep."),
    ])
    assert residue(system, "Kovacs") == []
    assert "Brightwater Homes" in ask(system, "Who is my landlord?")


def test_a_number_named_outright_goes_in_every_spelling_and_its_shared_prefix_stays(tmp_path: Path) -> None:
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "locksmith number is 07700 613290 - Rhys, he did the back door"),
        ("S1", 0, "assistant", "Saved."),
        ("S1", 0, "user", "from the office phone you need +44 7700 613290"),
        ("S1", 0, "assistant", "Saved."),
        ("S1", 0, "user", "the glazier is Moira, 07700 582114, very quick"),
        ("S2", 1, "user", "rhys has retired so get rid of 07700 613290 pls"),
    ])
    assert residue(system, "613290") == []
    assert "07700 582114" in ask(system, "What's the glazier's number?")


def test_a_texted_part_holding_the_thing_the_request_names_is_trimmed_not_the_whole_sentence(tmp_path: Path) -> None:
    # "the cytopoint thing": the lower-case part that says it goes; the dog's age and breed,
    # and his name everywhere, stay
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "pickle's 4 now, spaniel, and hes on cytopoint for his itchy paws lol"),
        ("S1", 0, "assistant", "Noted."),
        ("S1", 0, "user", "pickle's vet is Northgate Vets"),
        ("S2", 1, "user", "actually scrap the cytopoint thing, vet took him off it and i dont want it floating around"),
    ])
    assert residue(system, "cytopoint") == []
    units = stored(system, "units")
    assert "spaniel" in units and "Northgate Vets" in units and "pickle" in units


def test_a_question_to_the_assistant_is_not_merged_with_the_statement_after_it() -> None:
    from bemula.systems.erasemem.textutil import split_sentences

    # a question the user answers at once is one statement ...
    assert split_sentences("My gym days? That's Tuesdays and Fridays.") == ["My gym days? That's Tuesdays and Fridays."]
    assert split_sentences("Anyway, my gym days? Tuesdays.") == ["Anyway, my gym days? Tuesdays."]
    # ... a question to the assistant is followed by a statement of its own
    assert split_sentences("Split it or not? The one thing I will pay extra for on a flight: aisle seat.") == [
        "Split it or not?", "The one thing I will pay extra for on a flight: aisle seat."]
    assert split_sentences("What should I look for? Visiting my sister means a trip to Lille.") == [
        "What should I look for?", "Visiting my sister means a trip to Lille."]


def test_a_value_said_again_word_for_word_goes_as_one_span_and_its_words_stay_elsewhere(tmp_path: Path) -> None:
    """The statement's rarest words ("extra", "pay") are not its value; the run the user says
    again ("aisle seat near the front") is, and goes wherever it stands. "near" and "front"
    on their own stay."""
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "An hour a week is what I can afford. Split it or not? "
                          "The one thing I will pay extra for on a flight: aisle seat near the front."),
        ("S2", 1, "user", "I checked in early to grab my usual (aisle seat near the front) before the rush."),
        ("S2", 1, "assistant", "Nice, the aisle seat near the front is the best spot for a quick exit."),
        ("S2", 1, "user", "The bakery near the station sells rye bread."),
        ("S2", 1, "user", "I sit at the front in yoga class."),
        ("S3", 2, "user", "Could you drop how I choose seats on flights?"),
    ])
    assert residue(system, "aisle") == []
    dumped = stored(system, "units")
    assert "An hour a week is what I can afford." in dumped  # the other sentence of its turn
    assert "The bakery near the station sells rye bread." in dumped
    assert "I sit at the front in yoga class." in dumped
    assert "I checked in early to grab my usual" in dumped  # only the value's span went


def test_forgetting_a_number_blanks_the_number_not_whose_it_was(tmp_path: Path) -> None:
    """"bin that number": the question that names the kind ("Can you store a couple of phone
    numbers for me?") gives way to the sentence after it that writes one, and the number goes
    by its code key; "mum" and "landline", as rare here as the number, are not the value and
    stay where they are said again (the request's own "Mum's getting rid of her landline")."""
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "Can you store a couple of phone numbers for me? My mum's landline is 0161 496 0733."),
        ("S1", 0, "user", "The dentist, Fallowfield Dental, is 0161 496 0218."),
        ("S2", 1, "user", "Mum's getting rid of her landline so you can bin that number."),
    ])
    assert residue(system, "0733") == []
    dumped = stored(system, "units")
    assert "Mum's getting rid of her landline" in dumped
    assert "0161 496 0218" in ask(system, "What's the phone number for Fallowfield Dental?")


def test_the_number_from_my_passport_is_the_sentence_that_writes_it(tmp_path: Path) -> None:
    """A head noun that asks for a code ("number") is said by a sentence that writes one: "My
    passport is GK482913 …" is the passport number, not "… also passport number and
    Steuer-ID. Is normal?", which only names the kind."""
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "It asks many things: salary, employer, and also passport number and Steuer-ID. Is normal? "
                          "My passport is GK482913 and my bike is a blue Brompton."),
        ("S2", 1, "user", "Please don't keep the number from my passport anymore."),
    ])
    assert residue(system, "GK482913") == []


def test_an_attribute_two_statements_share_is_not_a_restated_value(tmp_path: Path) -> None:
    """"frequent flyer number" is said word for word in both statements, but before their
    "is": it names the kind of fact, so the kept statement keeps it."""
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "My frequent flyer number with KLM is KL 4471 0921."),
        ("S1", 0, "user", "My frequent flyer number with British Airways is BA 9981 2270."),
        ("S2", 1, "user", "I'm closing the KLM account, so please forget KL 4471 0921."),
    ])
    assert residue(system, "4471") == []
    dumped = stored(system, "units")
    assert "My frequent flyer number with British Airways is BA 9981 2270." in dumped


def test_a_category_request_takes_what_the_user_told_not_the_questions_that_share_its_words(tmp_path: Path) -> None:
    """"Forget everything about my job": a statement about the job goes, with its value said
    in a question too; a question to the assistant that only mentions work, a trick that
    "worked" and "I'll report back" are not about the job and stay."""
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "I work as a structural engineer at Brightwater Consulting."),
        ("S1", 0, "user", "I manage six direct reports."),
        ("S1", 0, "user", "I promised Brightwater Consulting a draft by Friday, is that realistic?"),
        ("S2", 1, "user", "The stack-and-sand trick worked on my shelf."),
        ("S2", 1, "user", "What reheats well in the office microwave?"),
        ("S2", 1, "user", "Viewing two flats this weekend, I'll report back."),
        ("S3", 2, "user", "Please forget everything about my job."),
    ])
    dumped = stored(system, "units")
    assert "structural engineer" not in dumped and "Brightwater" not in dumped
    assert "six direct reports" not in dumped
    assert "The stack-and-sand trick worked on my shelf." in dumped
    assert "What reheats well in the office microwave?" in dumped
    assert "Viewing two flats this weekend, I'll report back." in dumped


def test_what_the_user_said_after_a_forgotten_fact_answers_past_its_tombstone(tmp_path: Path) -> None:
    """The old account's tombstone matches "salary", "paid", "bank" and "account"; the new
    account's sentence, said later, matches less (its turn says "banks"), but it is the
    answer, not something to hide."""
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "My salary is paid into my Halden Bank account, account number 61839027."),
        ("S1", 0, "user", "The payroll contact is Bronwen in HR."),
        ("S2", 3, "user", "I've switched banks. Salary should now go to Corrie Mutual, account number 24406153."),
        ("S3", 5, "user", "Please purge the Halden details entirely."),
    ])
    answer = ask(system, "Which bank account is my salary paid into?")
    assert "Corrie Mutual" in answer and "61839027" not in answer
    assert "Bronwen" in ask(system, "Who is my payroll contact in HR?")


def test_a_question_to_the_assistant_is_no_fact_a_request_can_mean(tmp_path: Path) -> None:
    """"little" is the only word of "the nickname from when I was little" that memory holds;
    the question that says it asks the assistant for something and states nothing."""
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "My grandparents still call me Tiggy, a leftover from my childhood."),
        ("S2", 1, "user", "The soup went cold. Could you warm it up a little?"),
        ("S3", 2, "user", "Please forget the nickname from when I was little."),
    ])
    dumped = stored(system, "units")
    assert "Could you warm it up a little?" in dumped


def test_an_update_finds_the_old_value_said_with_a_synonym_of_the_attribute(tmp_path: Path) -> None:
    """"the model of my work computer switched to …; the previous one is no longer relevant":
    the old value was said as "My work laptop is …", and only it goes ("work" alone would
    as well pick the work bag, said later)."""
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "My work laptop is the HP EliteBook 840, for what it's worth."),
        ("S1", 0, "user", "My phone is a Pixel 7."),
        ("S1", 1, "user", "My work bag is the Fjallraven Kanken."),
        ("S2", 2, "user", "The model of my work computer switched to Dell Latitude 7440, and the previous one "
                          "is no longer relevant."),
    ])
    assert residue(system, "EliteBook") == []
    assert "Pixel 7" in ask(system, "What phone do I have?")
    assert "Fjallraven" in ask(system, "Which bag do I take to work?")
    assert "Latitude" in ask(system, "What model is my work computer?")


def test_an_update_finds_the_old_value_in_a_sentence_of_the_attributes_life_area(tmp_path: Path) -> None:
    """"my vehicle" is never said; "I drive a Skoda Octavia estate" is about getting around
    (the category lexicon's transport), "I bought a Dyson V15" is not."""
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "I drive a Skoda Octavia estate, nothing fancy."),
        ("S1", 0, "user", "I bought a Dyson V15 last week."),
        ("S2", 2, "user", "My vehicle is now a Toyota Yaris hybrid, so forget the old one."),
    ])
    assert residue(system, "Skoda") == []
    dumped = stored(system, "units")
    assert "I bought a Dyson V15 last week." in dumped


def test_forgetting_a_person_by_nickname_takes_the_full_name_with_accents_and_keeps_the_other(tmp_path: Path) -> None:
    """"Zsofi" shortens "Zsófia Németh" (written with accents, which the purge must see); the
    kept half of "Zsofi's email is … and Graham's is …" gets its noun back, so a question
    about Graham's email still finds it."""
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "My two referees are Zsófia Németh, my old team lead, and Graham Pike."),
        ("S1", 0, "assistant", "Saved: Zsófia Németh and Graham Pike as your referees."),
        ("S1", 0, "user", "Zsofi's email is zsofia.nemeth@calderalabs.io and Graham's is g.pike@northmoor.ac.uk"),
        ("S2", 1, "user", "Zsofi asked to be taken off. Please forget her completely. Graham stays as my referee."),
    ])
    assert residue(system, "Zsófia", "Németh", "zsofia", "Zsofi") == []
    assert "g.pike@northmoor.ac.uk" in ask(system, "What's Graham's email?")
    assert "Graham Pike" in stored(system, "units")


def test_a_cholesterol_reading_is_found_as_the_ldl_the_user_wrote(tmp_path: Path) -> None:
    """"the cholesterol number" is said "LDL 5.1" (data/attribute_synonyms.txt), not the
    sentence that only names the screening; the blood pressure beside it stays."""
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "My yearly screening results came back. BP 131/84. LDL 5.1. The GP wants a recheck."),
        ("S2", 1, "user", "That cholesterol number from the screening: please don't keep it."),
    ])
    dumped = stored(system, "units")
    assert "LDL 5.1" not in dumped
    assert "BP 131/84." in dumped and "My yearly screening results came back." in dumped


def test_a_person_wiped_by_pronoun_goes_with_the_name_they_go_by(tmp_path: Path) -> None:
    """"wipe him" after naming Rory: the name is the value however often memory says it, and
    the full name memory gives as what he goes by ("Rory … goes by Roderick Vance" the other
    way round) goes too; the best friend's name and nickname stay."""
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "my old flatmate, Roderick Vance, still owes me money. goes by Rory."),
        ("S1", 0, "user", "if rory texts again remind me to ignore it"),
        ("S1", 0, "user", "Climbing on Sunday with my best friend Margaret Osei (Maggie to everyone)."),
        ("S2", 1, "user", "I don't want Rory in here any more, or his real name. wipe him"),
    ])
    assert residue(system, "Roderick", "Vance", "Rory", "rory") == []
    dumped = stored(system, "units")
    assert "Margaret Osei (Maggie to everyone)" in dumped


def test_a_thing_named_as_a_sentence_s_subject_is_what_it_points_at(tmp_path: Path) -> None:
    """"the bakery thing is cash in hand and I'd rather there was no record of it": the
    bakery job goes; the library hours beside it stay."""
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "My library shifts start at 8, Monday to Thursday."),
        ("S1", 0, "user", "I've also picked up Saturday mornings at my cousin's bakery, 7 till 12."),
        ("S2", 1, "user", "Between us, the bakery thing is cash in hand and I'd honestly rather there was no "
                          "record of it. Could you drop that?"),
    ])
    assert residue(system, "7 till 12") == []
    assert "start at 8" in ask(system, "What time do my library shifts start?")


def test_the_cancelled_one_is_what_the_change_left_behind(tmp_path: Path) -> None:
    """"forget the cancelled flight" after "cancelled my flight and rebooked me on KL1524":
    the flight stated before the change goes; the change, with the new flight and the date
    both share, stays whole."""
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "I'm flying to Oslo for the audit. The flight is KL1520 from Leeds on 9 June, departing 06:50."),
        ("S1", 0, "user", "The audit is with Ingrid Dahl at Norsk Bølge on 10 June."),
        ("S2", 1, "user", "KLM have cancelled my flight and rebooked me on KL1524, still on 9 June, departing 12:05."),
        ("S3", 2, "user", "Please forget the cancelled flight so I don't mix the two up."),
    ])
    assert residue(system, "KL1520", "06:50") == []
    dumped = stored(system, "units")
    assert "rebooked me on KL1524, still on 9 June, departing 12:05." in dumped
    assert "Ingrid Dahl" in dumped


def test_a_list_of_statements_loses_only_the_one_asked_for(tmp_path: Path) -> None:
    """"The car is …, the spare key is …, the garage code is 4471, and …": each comma before
    "the … is" starts another statement when there are two or more of them, so only the code
    goes and the key's place is still found."""
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "House notes: the car is a blue Corsa, the spare key is in the hall drawer, the garage code "
                          "is 4471, and the recycling goes out on Fridays."),
        ("S2", 1, "user", "Please forget the garage code."),
    ])
    assert residue(system, "4471") == []
    assert "hall drawer" in ask(system, "Where is the spare key?")
    assert "Fridays" in ask(system, "When does the recycling go out?")


def test_and_the_before_another_statement_splits_a_sentence(tmp_path: Path) -> None:
    """"The wedding has moved to 12 June and the venue deposit is now £1,800": two facts; the
    deposit goes, the date stays."""
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "Quick update: the wedding has moved to 12 June and the venue deposit is now £1,800."),
        ("S1", 0, "user", "My best man is Callum, he's sorting the stag."),
        ("S2", 1, "user", "Please remove the venue deposit figure, the date can stay."),
    ])
    assert residue(system, "1,800") == []
    assert "12 June" in ask(system, "When is the wedding?")


def test_that_plate_is_the_one_of_the_car_the_request_names(tmp_path: Path) -> None:
    """"Jo sold the Polo, so don't keep that plate. Mine stays.": a bare noun takes the
    names the request gives, so Jo's plate goes and the user's stays."""
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "My car's a white Clio, plate AB12 CDE."),
        ("S1", 0, "user", "My sister Jo has a green Polo, plate XY65 ZZT."),
        ("S2", 1, "user", "Jo sold the Polo, so please don't keep that plate. Mine stays."),
    ])
    assert residue(system, "XY65") == []
    assert "AB12 CDE" in ask(system, "What's the plate on my car?")


def test_a_currency_word_is_no_value_of_its_own(tmp_path: Path) -> None:
    """Forgetting a loan of "₹2 lakh" takes the amount in every spelling, not the word
    "lakh": "₹5 lakh" in the savings account is another value and stays whole."""
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "In March I lent my cousin ₹2 lakh for his shop, because he was short and the landlord "
                          "was chasing him. He has paid nothing back."),
        ("S1", 0, "user", "My savings account at HDFC has ₹5 lakh in it."),
        ("S2", 1, "user", "Please forget what I said about lending my cousin money for his shop."),
    ])
    assert "5 lakh" in ask(system, "How much is in my savings account?")


def test_a_shared_area_code_does_not_make_another_number_a_restatement(tmp_path: Path) -> None:
    """Both numbers start "0117 496": those digit groups go with the removed number (by its
    code key, in every spelling), not as words of their own, so the user's own vet, whose
    number shares them, is no restatement of the neighbour's and stays."""
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "For the record, my own vet is Dr Anna Price at Redland Vets, phone 0117 496 0231."),
        ("S1", 0, "user", "My neighbour also uses a vet for her greyhound: Mr Tom Hale at Clifton Paws, 0117 496 0874."),
        ("S2", 1, "user", "She has moved away, so please delete Mr Hale's details."),
    ])
    assert residue(system, "0874") == []
    dumped = stored(system, "units")
    assert "0117 496 0231" in dumped


def test_a_texting_abbreviation_is_the_word_a_question_uses(tmp_path: Path) -> None:
    """"office wifi pw is …" answers "what's the office wifi password?": without "pw" read
    as "password", the later question "whats the office wifi again" outranked it once the
    studio's password (the only sentence that said "password") was forgotten."""
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "office wifi pw is maple-heron-31 fyi"),
        ("S1", 0, "user", "and the studio we hire on fridays, wifi password there is Loft_guest204"),
        ("S2", 1, "user", "we stopped hiring the studio so u can bin the studio wifi one"),
        ("S3", 2, "user", "whats the office wifi again, new phone"),
    ])
    assert residue(system, "Loft_guest204") == []
    assert "maple-heron-31" in ask(system, "What's the office wifi password?")


def test_a_capital_after_a_typed_filler_is_no_name_to_replace(tmp_path: Path) -> None:
    """"ok so Found my old bike …": the capital opens the sentence after a filler, so
    "Found" is no name, and the old car of "My car is now a Renault Clio, so forget the old
    one" is the Skoda (before, the bike sentence, whose "wheels" named the attribute, went)."""
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "ok so Found my old bike in the shed and both wheels are bent."),
        ("S1", 0, "user", "I drive a Skoda Fabia to work most days."),
        ("S2", 1, "user", "My car is now a Renault Clio, so forget the old one."),
    ])
    assert residue(system, "Skoda") == []
    assert "old bike" in stored(system, "units")


def test_forgetting_relatives_takes_their_names_however_often_they_were_said(tmp_path: Path) -> None:
    """"Everything about my family": the people go, so a relative's name is a value even when
    memory says it in more sentences than a value usually is ("Tobias" in four, all of them
    deleted), and the assistant's echo of it is blanked too."""
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "My brother Tobias fixed my bike last weekend."),
        ("S1", 0, "assistant", "That was kind of Tobias! Is the bike riding well now?"),
        ("S1", 0, "user", "My brother Tobias is coming for dinner on Friday."),
        ("S1", 1, "user", "I promised my brother Tobias I'd look over his CV."),
        ("S1", 1, "user", "My brother Tobias wants his drill back."),
        ("S1", 2, "user", "My manager Ingrid approved my leave for June."),
        ("S2", 3, "user", "Please forget everything about my family."),
    ])
    assert residue(system, "Tobias") == []
    assert "Ingrid" in ask(system, "Who approved my leave?")


def test_an_update_does_not_take_another_attribute_of_the_same_life_area_for_the_old_value(tmp_path: Path) -> None:
    """"Swap which podcast I like over to Reply All, delete the earlier one": no sentence says
    podcast; "my games console is the Steam Deck" is of the same life area (hobbies) but
    names its own attribute, so it is not the old podcast and stays (it was deleted, and
    "My games console is Reply All." written in its place)."""
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "My games console is the Steam Deck, mostly for indie games."),
        ("S2", 1, "user", "Could you swap which podcast I like over to Reply All? Delete the earlier one."),
    ])
    dumped = stored(system, "units")
    assert "Steam Deck" in dumped
    assert "console is Reply All" not in dumped


def test_a_name_the_deleted_statement_writes_is_its_value_though_not_its_rarest_word(tmp_path: Path) -> None:
    # "organised" is said once, "Priyanka" three times: the rarest word is not the value, the
    # name is, and the assistant's echo of it goes too
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "My sister Priyanka is the organised one in our family."),
        ("S1", 0, "assistant", "It sounds like Priyanka keeps everyone on track!"),
        ("S2", 2, "user", "My sister Priyanka has opinions on this, as usual. Which staples should I keep in?"),
        ("S3", 4, "user", "My sister Priyanka has opinions on this, as usual. How do I fix a squeaky brake?"),
        ("S3", 4, "user", "My flatmate Odile hates the squeak too."),
        ("S4", 6, "user", "Please forget my sister's name."),
    ])
    assert residue(system, "Priyanka") == []
    assert residue(system, "Odile")


def test_a_name_word_two_values_share_stays_with_the_kept_one(tmp_path: Path) -> None:
    # of "Casa Azul Hotel" only "Azul" is its own; "Casa" also names the Lisbon hotel, and
    # "Skyvale" of my frequent flyer number is the airline Jonas flies too
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "Lisbon first, three nights at the Casa do Rio Hotel in Alfama."),
        ("S1", 0, "user", "Then the train to Porto, two nights at the Casa Azul Hotel near Ribeira."),
        ("S2", 2, "user", "My Skyvale frequent flyer number is SV-5520-781."),
        ("S2", 2, "user", "My partner Jonas flies Skyvale too, his number is SV-6613-205."),
        ("S3", 4, "user", "Please forget about the Porto hotel."),
        ("S3", 4, "user", "And please forget my frequent flyer number, SV5520781."),
    ])
    assert residue(system, "Casa Azul", "Azul") == []
    assert "Casa do Rio" in ask(system, "Which hotel am I staying at in Lisbon?")
    assert residue(system, "SV-5520-781") == []
    assert "SV-6613-205" in ask(system, "What's Jonas's frequent flyer number?")


def test_a_category_takes_the_words_its_statements_share_with_a_few_others(tmp_path: Path) -> None:
    # "whippet" is not the rarest word of "my dog's a pure whippet, with all the quirks of the
    # breed" ("pure", "quirks" are said once), but the forum sentence says it again; the
    # excepted statement keeps every word of its own
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "My dog's a pure whippet, with all the quirks of the breed."),
        ("S1", 0, "user", "My cat Miso sleeps on the radiator all winter."),
        ("S2", 2, "user", "The whippet owners' forums have been brilliant for advice on coats."),
        ("S2", 2, "user", "My colleague Ravi is lending me his sewing machine."),
        ("S3", 4, "user", "Please forget everything about my pets, apart from my cat's name."),
    ])
    assert residue(system, "whippet") == []
    assert residue(system, "Ravi")
    assert "Miso" in ask(system, "What is my cat called?")


def test_a_time_of_day_is_schedule_and_an_amount_of_money_is_finance(tmp_path: Path) -> None:
    # neither statement says a schedule or money word; the time and the amount say it
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "I'm up at 5:45 am most days, whether I like it or not."),
        ("S1", 0, "user", "I'm on 81,750 euros a year at the moment."),
        ("S1", 0, "user", "My favourite author is Italo Calvino."),
        ("S2", 2, "user", "Please forget everything about my routine."),
        ("S2", 2, "user", "And forget anything about my finances too."),
    ])
    assert residue(system, "5:45", "81,750") == []
    assert residue(system, "Calvino")


def test_an_exception_named_by_a_word_of_its_kind_keeps_its_statement(tmp_path: Path) -> None:
    # "the dental booking" says neither "dentist" nor anything else of the statement it keeps,
    # and other units say "dental" and "booking"
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "I've got the dentist on April 2 at 15:15, which I'm dreading."),
        ("S1", 0, "user", "Choir rehearsal is Sunday at 4 pm."),
        ("S1", 0, "user", "My brother works in dental supplies."),
        ("S1", 0, "user", "Booking the ferry for the summer was a nightmare."),
        ("S2", 2, "user", "You can erase the bits about my calendar, the exception is the dental booking."),
    ])
    assert residue(system, "Sunday at 4 pm") == []
    assert "15:15" in ask(system, "When am I seeing the dentist?")


def test_a_psychologist_is_health(tmp_path: Path) -> None:
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "I see a psychologist at Sammen every other Thursday."),
        ("S1", 0, "user", "My Norwegian course is at Folkeuniversitetet."),
        ("S2", 2, "user", "Please delete anything I've told you about my health."),
    ])
    assert residue(system, "Sammen", "psychologist") == []
    assert residue(system, "Folkeuniversitetet")


def test_a_target_word_typed_one_letter_off_is_the_word_memory_says(tmp_path: Path) -> None:
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "My dentist is Dr Amara Osei on Mill Road."),
        ("S1", 0, "user", "My GP is Dr Kwame Boateng, and I'm seeing him on Friday."),
        ("S2", 2, "user", "Please forget my denist."),
    ])
    assert residue(system, "Osei") == []
    assert residue(system, "Boateng")


def test_a_value_the_user_keeps_repeating_is_blanked_as_a_run(tmp_path: Path) -> None:
    # "chicken tikka masala" is in four sentences, so none of its words is rare; said again
    # word for word, it is the value, and goes as one span wherever it stands
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "My favourite dish is chicken tikka masala, and friends ask for it."),
        ("S1", 0, "user", "I made chicken tikka masala again for the book club."),
        ("S2", 2, "user", "Leftover chicken tikka masala makes a great lunch."),
        ("S2", 2, "user", "The chicken tikka masala recipe came from my aunt Salma."),
        ("S2", 2, "user", "My sister Aoife is visiting in March."),
        ("S3", 4, "user", "Please forget my favourite dish."),
    ])
    assert residue(system, "tikka masala") == []
    assert residue(system, "Aoife") and residue(system, "Salma")


def test_a_bare_item_of_a_list_is_about_what_the_request_says_it_told(tmp_path: Path) -> None:
    # "the amount" alone could be any amount; the request said it is the loan's
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "The loan is 45 000 $, for the oven and the new hood."),
        ("S1", 0, "user", "The rent on the shop is 2 300 $ a month."),
        ("S1", 0, "user", "The amount I spend on flour each week is about 400 $."),
        ("S1", 0, "user", "I went to Caisse Masson for it."),
        ("S2", 2, "user", "I told you too much about the loan. The amount, the rate, the bank I went to. "
                          "I don't want all that kept anywhere."),
    ])
    assert residue(system, "45 000") == []
    assert residue(system, "2 300") and residue(system, "400")


def test_a_label_before_a_colon_goes_with_its_value(tmp_path: Path) -> None:
    # "Hall: Little Greene Aquamarine Blue." is one statement: "Hall" names it, the colour
    # after the colon is its value (not a second fact to keep)
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "Paint decided. Kitchen: Farrow & Ball Sulking Room Pink. Hall: Little Greene Aquamarine Blue."),
        ("S1", 0, "user", "Decorator is Gary Pilling. Starts the 9th."),
        ("S2", 2, "user", "Drop the hall one. Rethinking it."),
    ])
    assert residue(system, "Aquamarine") == []
    assert residue(system, "Sulking Room Pink") and residue(system, "Gary Pilling")


def test_a_trimmed_change_keeps_the_subject_it_was_about(tmp_path: Path) -> None:
    # the part that goes says "my dentist"; the rest, "after the move I switched to Dr Osei",
    # does not, so without it no question about the dentist would find the current one
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "For years my dentist was Dr Hale at Elm Dental, but after the move I switched to Dr Osei "
                          "at Riverside Practice."),
        ("S1", 0, "user", "My son Tom sees Dr Grant, the children's dentist at Riverside, who is brilliant with him."),
        ("S2", 2, "user", "Could you forget about Dr Hale and Elm Dental? I'm never going back."),
    ])
    assert residue(system, "Hale", "Elm Dental") == []
    assert "Osei" in ask(system, "Which dentists have I been to?")


def test_a_topic_request_takes_everything_said_of_each_thing_it_names(tmp_path: Path) -> None:
    # "my old flatmate and the deposit row" names no category: every sentence that says what
    # each part says goes, not only the best few matches of the whole description
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "My old flatmate Teodor still hasn't paid his share of the gas bill."),
        ("S1", 0, "user", "The deposit row dragged on all winter, in the end we split it 60/40."),
        ("S2", 1, "user", "The deposit row even reached the letting agent, Harcourt Lets."),
        ("S2", 1, "user", "My sister Ilse is moving to Graz in May."),
        ("S3", 2, "user", "Could you let go of anything about my old flatmate and the deposit row? That's behind me."),
    ])
    assert residue(system, "Teodor", "60/40", "Harcourt") == []
    assert "Graz" in ask(system, "Where is my sister moving?")


def test_a_topic_request_takes_the_list_a_statement_introduces_and_what_it_goes_on_to_say(tmp_path: Path) -> None:
    # the statement that says "ex" ends in a colon and its list goes on about him; the next
    # message says "breakup" and then tells of him by pronoun only
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "saw my ex at the farmers market today. background:\n- Ruairi and I were together 2 years\n"
                          "- he moved to Leeds for a teaching post"),
        ("S1", 0, "user", "the breakup was mutual, which is almost worse? he still has my good tent, the green Vango one."),
        ("S1", 0, "user", "unrelated: my climbing partner Noor is off to Kalymnos in June."),
        ("S2", 3, "user", "please drop anything about my ex and the breakup, all of it"),
    ])
    assert residue(system, "Ruairi", "Leeds", "Vango") == []
    assert "Kalymnos" in ask(system, "Where is Noor going climbing?")



def test_a_category_request_takes_the_clause_split_from_a_statement_it_takes(tmp_path: Path) -> None:
    # the second sentence names no health word and only goes on with the first
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "my gp thinks its my gallbladder. and shes sending me to someone at st jude's, dr okonjo"),
        ("S1", 0, "user", "and the bakery on my corner is doing sourdough again, finally"),
        ("S2", 2, "user", "please delete everything about my health"),
    ])
    assert residue(system, "okonjo") == []
    assert "sourdough" in ask(system, "What is the bakery on my corner doing again?")


def test_a_relative_memory_never_names_by_relation_is_not_found_by_whose_relative(tmp_path: Path) -> None:
    # "Tariq's girlfriend" is never called that in memory: the units that only speak of
    # Tariq are not her name or her job, so nothing of Tariq's goes
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "Tariq and I share the bins, he does the recycling run on Thursdays."),
        ("S1", 0, "user", "Tariq's van blocks the drive most mornings."),
        ("S2", 1, "user", "Ines was at the barbecue next door, she works nights at the Royal as a midwife."),
        ("S3", 3, "user", "I went on about Tariq's girlfriend yesterday. Please don't keep her name or what she does for work."),
    ])
    assert "recycling" in ask(system, "Who does the recycling run on Thursdays?")
    assert "van" in ask(system, "What blocks the drive most mornings?")



def test_an_update_rewrites_the_whole_old_value_words_inside_it_too() -> None:
    # "St." and "apartment" sit between the old address's own words: they go with it, so the
    # rewritten sentence says the new address and no piece of the old one
    from bemula.systems.erasemem.resolve import substitute

    old = {"88", "aldhelm", "terrace", "c"}
    assert substitute("address is 88 St. Aldhelm Terrace, apartment C.", old, "5 Larch Close") == \
        "address is 5 Larch Close."
    # a word or two only: a longer stretch between two old words is kept
    assert substitute("88 is the number, and my old street was Aldhelm", old, "5") == "5 is the number, and my old street was"


def test_two_targets_in_one_sentence_each_take_their_part(tmp_path: Path) -> None:
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "The form wants my social security number, which is 219 44 0671, and for the licence: "
                          "the number is K4TR88Q2, and my employer is Hollis & Grant."),
        ("S2", 2, "user", "Please forget the social security number and the number on my licence."),
    ])
    assert not residue(system, "219 44 0671", "K4TR88Q2")
    assert "Hollis" in ask(system, "Who is my employer?")


def test_an_update_leaves_someone_elses_number_of_the_same_shape(tmp_path: Path) -> None:
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "my cell is 503-555-0164 btw"),
        ("S2", 1, "user", "putting my roommate down as emergency contact, her number is 503-555-0112"),
        ("S3", 2, "user", "new phone, new number. its 503-555-0199 now. the old one is dead so get rid of it"),
    ])
    assert not residue(system, "503-555-0164")
    assert "0112" in ask(system, "What is my roommate's number?")


def test_an_attribute_left_behind_is_not_the_old_value(tmp_path: Path) -> None:
    from bemula.systems.erasemem.resolve import old_value_of

    assert old_value_of(["I've ditched my dentist, she never answers"]) is None
    assert old_value_of(["I cancelled Hexa Fitness and joined the climbing gym"]) == "Hexa Fitness"
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "Our accountant rang today, Marco Bellini, about the quarterly return."),
        ("S2", 2, "user", "I've ditched my accountant. new accountant is Ruth Abara at Abara Tax in Leith so swap "
                          "her in and forget the old guy"),
    ])
    assert not residue(system, "Bellini")


def test_an_area_owned_by_a_relative_is_theirs_not_the_users(tmp_path: Path) -> None:
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "My father, Anselm, moved into Rosewood Lodge in March."),
        ("S1", 0, "user", "He has Parkinson's and takes levodopa three times a day."),
        ("S2", 1, "user", "I take ibuprofen 400 for my shoulder."),
        ("S2", 1, "user", "My wife Carla teaches chemistry."),
        ("S3", 3, "user", "Please forget everything I told you about my father's situation: his illness, the home, "
                          "his medication, all of it."),
    ])
    assert not residue(system, "Rosewood", "levodopa", "Parkinson")
    assert "ibuprofen" in ask(system, "What do I take for my shoulder?")
    assert "chemistry" in ask(system, "What does Carla teach?")


def test_someone_elses_family_leaves_the_users_own_relatives(tmp_path: Path) -> None:
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "Tomas's parents live in Segovia and his mother Pilar runs a bakery."),
        ("S1", 0, "user", "My mother's birthday is 19 April, I need to book the restaurant."),
        ("S2", 2, "user", "Tomas asked me not to keep anything about his family, so please forget his family, his "
                          "parents, where they live."),
    ])
    assert not residue(system, "Segovia")
    assert "19 April" in ask(system, "When is my mother's birthday?")


def test_a_state_after_a_degree_word_is_no_new_value() -> None:
    from bemula.systems.erasemem.resolve import new_value_of

    assert new_value_of(["My neighbour had his identity stolen last year and now I'm a bit paranoid."], set()) is None


def test_an_update_to_a_name_does_not_take_the_commute_it_improves_on(tmp_path: Path) -> None:
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "Mila goes to Greenway Primary, two trams from our flat."),
        ("S1", 1, "user", "The deposit was two months of rent."),
        ("S2", 3, "user", "Big change: her school is now Larch Hill Primary, it is 10 minutes walking instead of two "
                          "trams. Please forget the old one."),
    ])
    assert not residue(system, "Greenway")
    assert "deposit" in ask(system, "How much was the deposit?").lower()


def test_an_update_to_a_date_replaces_the_old_date_in_every_spelling_and_no_other(tmp_path: Path) -> None:
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "Knee surgery is June 9. They want me there at 6."),
        ("S1", 1, "assistant", "Tuesday, June 9th at 6 a.m. — noted."),
        ("S2", 2, "user", "My sister flies in on June 3, so she can drive me."),
        ("S3", 4, "user", "The clinic called and moved my surgery. It is June 23 now. So forget the old date you have."),
    ])
    assert not residue(system, "June 9", "June 9th")
    assert "June 3" in ask(system, "When does my sister fly in?")
    assert "June 23" in ask(system, "When is my knee surgery?")


def test_being_moved_out_of_a_place_names_the_old_value() -> None:
    from bemula.systems.erasemem.resolve import old_value_of

    assert old_value_of(["they've pulled me out of Greenlane and sent me to Middlemore for the block"]) == "Greenlane"


def test_a_kept_fact_in_the_targets_sentence_stays_as_the_rest_of_it(tmp_path: Path) -> None:
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "Note for the Harbour project: the opening has been moved to 4 May and the budget is now capped "
                          "at £96,000."),
        ("S2", 2, "user", "The Harbour budget figure is confidential. Remove that number from your memory; the opening "
                          "date should remain."),
    ])
    assert not residue(system, "96,000")
    assert "4 May" in ask(system, "When is the Harbour opening?")


def test_that_night_in_a_month_is_the_conversation_held_at_night(tmp_path: Path) -> None:
    system = make(tmp_path)
    base = datetime(2026, 2, 3, 19, 0)
    for sid, start, text in [
        ("S1", base, "My flat is at 12 Orchard Row and my rent is 900 a month."),
        ("S2", base + timedelta(days=9, hours=4), "Can't sleep. I owe my brother 2,000 and I'm scared to tell him."),
        ("S3", base + timedelta(days=30), "That night in February when I couldn't sleep, I said too much. Please "
                                          "delete everything from that night."),
    ]:
        system.ingest(TurnEvent("user", text, sid, start))
    assert not residue(system, "2,000")
    assert "Orchard Row" in ask(system, "Where is my flat?")


def test_a_bare_item_takes_the_topic_said_before_it(tmp_path: Path) -> None:
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "My mortgage is 1,840 a month with Halden Building Society."),
        ("S1", 1, "user", "The car insurance renewal came in at 612 for the year."),
        ("S2", 2, "user", "The mortgage stuff I told you — the amount and the lender — please delete them."),
    ])
    assert not residue(system, "1,840", "Halden")
    assert "612" in ask(system, "How much is my car insurance renewal?")


def test_the_number_given_for_something_is_the_one_written_after_its_topic(tmp_path: Path) -> None:
    # the head of "the number I gave you for the storage unit" is "number", not "unit"; the
    # sentence that names the storage unit writes no number, the one after it does
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "Paying for the storage unit is getting silly. Every quarter it's 1,340 dollars now."),
        ("S2", 1, "user", "The storage unit is at Northgate Self Storage, behind the garden centre."),
        ("S3", 2, "user", "The number I gave you for the storage unit, please forget it."),
    ])
    dumped = stored(system)
    assert "1,340" not in dumped and "Northgate Self Storage" in dumped


def test_a_removed_number_takes_none_of_the_prefix_a_kept_one_shares(tmp_path: Path) -> None:
    # "KX-77-B.3120" opens both patient numbers: the user's goes by its key, the son's stays
    # whole; "Tomasz's number you can keep" excepts the son's by name
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "The clinic letter came. They print my patient number as KX-77-B.3120.55418 on it."),
        ("S2", 1, "user", "Tomasz has his own, from the online portal: KX-77-B.3120.55490."),
        ("S2", 2, "assistant", "Easy to mix up: yours ends in 55418, Tomasz's in 55490."),
        ("S3", 3, "user", "My own patient number, please forget it. Tomasz's number you can keep."),
    ])
    dumped = stored(system)
    # (its own last group goes where it is written alone; the groups both share stay)
    assert "55418" not in dumped and "Tomasz's in 55490" in dumped
    assert "KX-77-B.3120.55490" in dumped and "The clinic letter came." in dumped


def test_a_health_category_takes_the_specialist_and_the_biopsy_but_no_other_date_of_its_month(tmp_path: Path) -> None:
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "My PSA came back at 7.2, so I've been sent to a urologist, Dr Amsel."),
        ("S2", 1, "user", "The biopsy is on 3 March at the Royal."),
        ("S3", 2, "user", "My granddaughter's recital is on 9 March, I'll be in the front row."),
        ("S4", 3, "user", "I'm allergic to penicillin, for the record."),
        ("S5", 4, "user", "Please erase everything about my health. One exception: the penicillin allergy you must keep."),
    ])
    dumped = stored(system)
    assert "Amsel" not in dumped and "7.2" not in dumped and "3 March" not in dumped
    assert "recital is on 9 March" in dumped and "allergic to penicillin" in dumped


def test_you_can_keep_x_tho_is_an_exception_and_a_question_first_in_its_sentence_is_no_statement(tmp_path: Path) -> None:
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "i'm on sertraline 50mg and i see a therapist every other week."),
        ("S1", 1, "user", "also i'm allergic to amoxicillin, found out the hard way."),
        ("S2", 2, "user", "What should I pay a new guy with no experience? I don't want to lowball anyone."),
        ("S2", 3, "user", "Marco gets twenty-three an hour, he's my foreman."),
        ("S3", 4, "user", "can u erase all my medical stuff? u can keep the allergy tho bc that's useful at urgent care."),
        ("S4", 5, "user", "What I pay Marco, please forget that too."),
    ])
    dumped = stored(system)
    assert "sertraline" not in dumped and "allergic to amoxicillin" in dumped
    # (the question asks the assistant and states nothing: "what I pay Marco" is not it)
    assert "What should I pay a new guy with no experience?" in dumped


def test_an_update_whose_new_value_says_it_finds_the_old_date_by_the_sentence_before(tmp_path: Path) -> None:
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "Big week coming: my sister's hen do is on 10 June, and the driving theory test is on 14 June."),
        ("S2", 1, "user", "I've pushed the theory test back. I'm now taking it on 2 July. Forget the old date."),
    ])
    dumped = stored(system)
    assert "14 June" not in dumped and "hen do is on 10 June" in dumped and "2 July" in dumped


def test_last_saturday_reaches_the_conversation_typed_after_midnight(tmp_path: Path) -> None:
    # 2026-01-31 is a Saturday: the chat at 01:20 on the Sunday is that Saturday night's; the
    # one on an earlier Saturday afternoon is not
    system = make(tmp_path)
    events = [
        TurnEvent("user", "My shift at the climbing gym pays 14 dollars an hour.", "S1", datetime(2026, 1, 10, 15, 0)),
        TurnEvent("user", "home now, had three ciders at the gig and my ex was there with her new guy Tomás.", "S2",
                  datetime(2026, 2, 1, 1, 20)),
        TurnEvent("user", "ok so about last saturday. whatever i typed at like 1am, act like that convo never happened.",
                  "S3", datetime(2026, 2, 7, 14, 0)),
    ]
    for event in events:
        system.ingest(event)
    dumped = stored(system)
    assert "Tomás" not in dumped and "14 dollars an hour" in dumped


def _night_sessions(system: EraseMem, request: str, when: datetime) -> str:
    """Feed three sessions (a Sunday-night one among them), then ``request`` at ``when``; the dump."""
    for event in [
        TurnEvent("user", "Planning the allotment: leeks in row two, onions in row three.", "S1", datetime(2026, 2, 16, 20, 10)),
        TurnEvent("user", "Quick one: my bus pass renews on the 30th.", "S2", datetime(2026, 2, 25, 19, 5)),
        TurnEvent("user", "can't sleep. Damo owes me 4,850 and I've had two panic attacks this week.", "S3",
                  datetime(2026, 3, 1, 23, 42)),
        TurnEvent("user", request, "S4", when),
    ]:
        system.ingest(event)
    return stored(system)


def test_a_window_named_in_one_sentence_of_several_is_the_one_meant(tmp_path: Path) -> None:
    # a time phrase of several sentences (short ones run together): "Better today" names no
    # past conversation, "That Sunday night" does
    from bemula.systems.erasemem.intent import ForgetIntent, ForgetKind
    from bemula.systems.erasemem.resolve import resolve

    system = make(tmp_path)
    _night_sessions(system, "ok thanks.", datetime(2026, 3, 5, 12, 20))
    intent = ForgetIntent(ForgetKind.TIME_WINDOW, targets=["everything"],
                          time_phrase="Better today. That Sunday night. Late. Everything I told you then")
    res = resolve(intent, system.store, datetime(2026, 3, 5, 12, 21), "S4", "none")
    deleted = " ".join(system.store.units[u].text for u in res.delete_units)
    assert "panic attacks" in deleted and "leeks" not in deleted and "bus pass" not in deleted


def test_a_window_the_event_does_not_find_is_the_time_another_sentence_names(tmp_path: Path) -> None:
    dumped = _night_sessions(make(tmp_path), "About Sunday night. Whisky talking. Everything I wrote after the "
                             "quiz, I don't want it kept.", datetime(2026, 3, 7, 10, 20))
    assert "panic attacks" not in dumped and "leeks in row two" in dumped


def test_that_night_at_3am_is_the_one_conversation_held_in_the_small_hours(tmp_path: Path) -> None:
    system = make(tmp_path)
    for event in [
        TurnEvent("user", "Rent is 520 a month for the room.", "S1", datetime(2026, 1, 19, 22, 40)),
        TurnEvent("user", "so drunk. my ex Dario owes me 300 and I still miss him.", "S2", datetime(2026, 2, 22, 3, 5)),
        TurnEvent("user", "Shift at the bar moved to Thursdays.", "S3", datetime(2026, 3, 4, 13, 20)),
        TurnEvent("user", "that night I wrote you at like 3am after Ines's birthday, can you just pretend that whole "
                  "conversation never happened?", "S4", datetime(2026, 3, 29, 12, 40)),
    ]:
        system.ingest(event)
    dumped = stored(system)
    assert "Dario" not in dumped and "520 a month" in dumped and "Thursdays" in dumped


def test_the_hour_named_outranks_the_conversation_that_planned_the_event(tmp_path: Path) -> None:
    """The chat before the party says "Ines's birthday" too; "at like 3am after" it is the
    one held in the small hours."""
    system = make(tmp_path)
    for event in [
        TurnEvent("user", "Ines's birthday is on Saturday, I'm buying her the blue scarf from Zara.", "S1",
                  datetime(2026, 2, 19, 18, 10)),
        TurnEvent("user", "so drunk. my ex Dario owes me 300 and Ines's party was a mess.", "S2", datetime(2026, 2, 22, 3, 5)),
        TurnEvent("user", "that night I wrote you at like 3am after Ines's birthday, can you just pretend that whole "
                  "conversation never happened?", "S3", datetime(2026, 3, 29, 12, 40)),
    ]:
        system.ingest(event)
    dumped = stored(system)
    assert "Dario" not in dumped and "blue scarf" in dumped


def test_a_drug_by_its_stem_or_a_dose_is_health_and_a_bottle_size_is_not() -> None:
    from bemula.systems.erasemem.categories import unit_categories

    assert "health" in unit_categories("I take zopiclone some nights when the ringing is loud.")
    assert "health" in unit_categories("He's on clopidogrel now, one a day.")
    assert "health" in unit_categories("The new one is 20 mg at night.")
    assert "health" not in unit_categories("I bought the 500 ml bottle of olive oil.")


def test_my_health_leaves_a_relatives_surgery_and_a_jobs_health_insurance(tmp_path: Path) -> None:
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "My father has bowel cancer. The surgery will be at St Mary's on 3 February."),
        ("S2", 1, "user", "I was diagnosed with asthma as a kid and I'm on a Clenil inhaler now."),
        ("S3", 2, "user", "The new job is dull, but my contract comes with health insurance and a pension."),
        ("S4", 3, "user", "Please delete everything I told you about my own health."),
    ])
    dumped = stored(system, "units")
    assert "Clenil" not in dumped
    assert "St Mary's on 3 February" in dumped and "health insurance and a pension" in dumped


def test_a_removed_dated_statement_takes_its_date_in_every_spelling_and_no_other_day_of_its_month(tmp_path: Path) -> None:
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "The deposition is set for April 7 at the city solicitor's office."),
        ("S1", 1, "assistant", "Noted: deposition on 7 April."),
        ("S2", 2, "user", "My brother's wedding is on April 25 in Quincy."),
        ("S3", 3, "user", "Please forget the deposition date."),
    ])
    dumped = stored(system)
    assert "April 7" not in dumped and "7 April" not in dumped
    assert "wedding is on April 25" in dumped


def test_the_second_of_two_numbers_of_one_kind_is_the_one_said_second(tmp_path: Path) -> None:
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "Booked the ferry to Bergen. Booking ref 7731 5520 19."),
        ("S2", 1, "user", "Booked the return ferry too. Booking ref 7731 5520 91."),
        ("S3", 2, "user", "We're flying back instead, so delete that second booking ref I gave you."),
    ])
    dumped = stored(system, "units", "turns")
    assert "7731 5520 91" not in dumped and "7731 5520 19" in dumped


def test_someone_elses_thing_is_not_the_users_own(tmp_path: Path) -> None:
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "My GP is Dr Farouk at Hillside Surgery."),
        ("S2", 1, "user", "And my dad's is Dr Moss at Quarry Lane Surgery."),
        ("S3", 2, "user", "My sister handles Dad's appointments now, so there's no need for you to keep his "
                          "doctor's details. Could you drop them?"),
    ])
    dumped = stored(system, "units", "turns")
    assert "Moss" not in dumped and "Quarry Lane" not in dumped
    # a word the removed name shares with a kept one only says what kind of place it is
    assert "Dr Farouk at Hillside Surgery" in dumped


def test_the_one_part_that_writes_a_number_is_the_number_whoever_it_names(tmp_path: Path) -> None:
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "Priya from Ward 9 is taking my Friday — she's the sister in charge there and her mobile "
                          "is 0161 555 0429 if anything goes wrong."),
        ("S2", 1, "user", "Could you delete Priya's phone number? She keeps it private."),
    ])
    dumped = stored(system, "units", "turns")
    assert "0161 555 0429" not in dumped and "Ward 9" in dumped


def test_how_much_something_is_takes_the_sum_and_leaves_when_it_comes(tmp_path: Path) -> None:
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "My army pension arrives on the 3rd of each month, £1,980 after tax."),
        ("S2", 1, "user", "I'd rather you didn't hold on to how much the pension is. When it arrives is fine to keep."),
    ])
    dumped = stored(system, "units", "turns")
    assert "1,980" not in dumped and "3rd of each month" in dumped


def test_an_address_with_an_at_sign_is_an_email_address_and_its_shared_domain_stays_elsewhere(tmp_path: Path) -> None:
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "My grandson Rory set up the email on my tablet and told me to keep the addresses noted. "
                          "Mine is margaret.hale@talktalk.net, please note it."),
        ("S2", 1, "user", "My late brother Edwin, who taught maths for forty years, had his own, "
                          "edwin.hale52@talktalk.net, the 52 being the year he was born."),
        ("S3", 2, "user", "We closed Edwin's account last week, so there's no need to remember his email address. "
                          "Please let it go."),
    ])
    dumped = stored(system, "units", "turns")
    assert "edwin.hale52" not in dumped and "margaret.hale@talktalk.net" in dumped
    assert "grandson Rory set up the email" in dumped  # the sentence that only names email is not it


def test_everything_about_her_things_is_the_person_the_message_names_not_another(tmp_path: Path) -> None:
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "First of all, Tom will NOT be here for New Year: he is in Calgary until April."),
        ("S2", 1, "user", "Aisha, on the other hand, IS coming. She lands at Stansted on the 30th at 14.05."),
        ("S3", 2, "user", "Aisha has been invited to a friend's instead and hasn't decided. Until she makes up her mind "
                          "please forget everything about her coming and her flight."),
    ])
    units = stored(system, "units")
    assert "Stansted" not in units and "14.05" not in units
    assert "Calgary" in units  # Tom's plans are his


def test_where_i_live_is_the_sentence_that_writes_the_address_not_one_that_says_home(tmp_path: Path) -> None:
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "The sofa is for home."),
        ("S1", 0, "user", "My home is 14 Quay Lane, Penryn, flat 2."),
        ("S1", 0, "user", "Home delivery is Thursday evening, my partner will be in."),
        ("S2", 1, "user", "Actually I'd rather you didn't hold on to where I live."),
    ])
    units = stored(system, "units")
    assert "Quay Lane" not in units
    assert "The sofa is for home." in units and "Home delivery is Thursday evening" in units


def test_a_second_thing_a_person_does_keeps_its_first_when_the_address_goes(tmp_path: Path) -> None:
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "My granddaughter Isla is reading Law at the University of Leeds and lives in Flat 6, "
                          "22 Hyde Terrace, which I gather is near the park."),
        ("S2", 1, "user", "Her mother says I shouldn't have Isla's address stored. Please forget it."),
    ])
    units = stored(system, "units")
    assert "Hyde Terrace" not in units and "Flat 6" not in units
    assert "reading Law at the University of Leeds" in units


def test_a_new_number_stands_where_the_old_statement_wrote_its_number(tmp_path: Path) -> None:
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "can u save my number for job forms, its 07700 900211"),
        ("S2", 1, "user", "new sim, new number: 07700 900344"),
        ("S3", 2, "user", "switched network again, new one is 07700 900875. pls forget the other two numbers, only this one now"),
    ])
    units = stored(system, "units")
    assert "900211" not in units and "900344" not in units and "900875" in units
    assert "save my number for job forms, its 07700 900875" in units  # the number, not the word "number", changed


def test_a_day_first_memory_keeps_the_other_reading_of_a_removed_date(tmp_path: Path) -> None:
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "optician booked for 5/6 at 10:40 pls remind me"),
        ("S1", 0, "assistant", "Saved: optician on 5 June at 10:40."),
        ("S2", 1, "user", "also swapped shifts so now im working 6/5 instead of the 12th"),
        ("S2", 1, "assistant", "Noted: you're working on 6 May instead of the 12th."),
        ("S3", 2, "user", "they cancelled the optician so pls forget it, the 5th of june thing, all of it"),
    ])
    dumped = stored(system, "units", "turns")
    assert "5/6" not in dumped and "working 6/5 instead of the 12th" in dumped


def test_what_medication_someone_is_on_is_the_drug_memory_names(tmp_path: Path) -> None:
    system = make(tmp_path)
    feed(system, [
        ("S1", 0, "user", "My mum Irene's been put on atorvastatin since the scare in May, and her cardiologist is "
                          "Dr Osei at St James's."),
        ("S2", 1, "user", "She'd be mortified I'd told anyone about her pills. Can you forget what medication she's on? "
                          "Keep the rest."),
    ])
    units = stored(system, "units")
    assert "atorvastatin" not in units and "Dr Osei at St James's" in units


def test_only_a_new_value_that_is_a_number_takes_the_old_numbers_place() -> None:
    from bemula.systems.erasemem.resolve import rewrite_with

    old = "I booked the Kimpton downtown, confirmation 55120934."
    assert rewrite_with(old, [], {"kimpton"}, {"kimpton"}, "66104825") == "I booked the Kimpton downtown, confirmation 66104825."
    restated = rewrite_with(old, [], {"kimpton"}, {"kimpton"}, "the Marriott, confirmation 66104825")
    assert "confirmation the Marriott" not in restated and "Kimpton" not in restated, restated
