"""F3: a hand-written category lexicon (ours, not the generator's).

A request like "forget everything about my health" describes a category instead of listing
facts. We need two things: which category a description names (``categories_in``), and
which memory units belong to it (``unit_categories``). Both work on index tokens, so the
lexicon words are tokenised exactly like memory text (plural/verb endings folded).

The lexicon is deliberately broad common-sense vocabulary per life area; a unit may belong
to several categories ("my doctor is my sister" is health and family).
"""

from __future__ import annotations

import re
from functools import lru_cache
from importlib import resources

from bemula.systems.erasemem.tokens import tokenize

#: category -> (words that NAME the category in a request, words that SIGNAL it in a unit)
_LEXICON: dict[str, tuple[str, str]] = {
    "health": (
        "health healthcare medical medicine wellbeing wellness illness illnesses condition conditions"
        " diagnosis diagnoses body physical mental",
        "health medical medicine medication medications meds pill pills prescription prescribed"
        " doctor doctors physician gp hospital clinic surgery surgeon operation allergy"
        " allergies allergic asthma diabetes diabetic insulin blood pressure cholesterol migraine"
        " migraines therapy therapist psychiatrist anxiety depression adhd diagnosed diagnosis"
        " condition chronic symptom symptoms injury injured knee pain dentist dental"
        " vaccine vaccinated inhaler disease disorder cancer heart thyroid vitamin supplement"
        " supplements sick illness treatment physiotherapy physio glasses lenses contact eyesight"
        " hearing pregnant pregnancy sleep insomnia apnea antidepressant ibuprofen penicillin"
        " gluten lactose intolerant intolerance celiac height weight tall kg dose dosage tablet tablets capsule capsules mg"
        " refill pharmacy pharmacist checkup diagnose cardiologist dermatologist"
        " psychologist psychotherapist counsellor counselor counselling counseling practitioner"
        " referral infirmary chemotherapy leukemia tumour tumor headache headaches antibiotics sickness"
        " cardiac glucose syndrome fracture concussion ligament physiotherapist optician optometrist"
        " dietitian arthritis eczema epilepsy hayfever"
        " urologist urology oncologist oncology neurologist gynaecologist gynecologist obstetrician midwife"
        " paediatrician pediatrician endocrinologist rheumatologist gastroenterologist biopsy mri ultrasound"
        " ecg ekg hba1c psa ldl prostate dementia alzheimer alzheimers parkinson parkinsons chemo radiotherapy"
        " metformin statin statins antihistamine paracetamol painkiller painkillers",
    ),
    "finance": (
        "finance finances financial money monetary income wealth banking budget economic",
        "money bank banking account salary income earn earning paid pay wage wages debt loan"
        " loans mortgage rent credit card savings saving invest investment investments"
        " portfolio stock stocks shares crypto bitcoin pension retirement 401k ira tax taxes"
        " budget budgeting premium bonus worth payment iban overdraft broker utilities"
        " fund funds salary repayment"
        " creditor creditors lending expenses owe owed owes repay overdrawn",
    ),
    "family": (
        "family families relatives relative kin household parents children kids",
        "family mother mom mum father dad parent parents brother sister sibling siblings son"
        " daughter child children kid kids baby grandmother grandma grandfather grandpa"
        " grandparents aunt uncle cousin niece nephew twin stepdad stepmom in-law wife husband"
        " spouse partner"
        " grandson granddaughter relatives stepfather stepmother mummy mommy daddy toddler newborn infant",
    ),
    "relationships": (
        "relationship relationships love dating romantic romance partner marriage personal life",
        "boyfriend girlfriend partner wife husband spouse fiance fiancee married marriage"
        " divorce divorced dating date dated ex engaged wedding anniversary crush romance"
        " romantic love relationship single breakup"
        " bride vows estranged widowed remarried heartbreak",
    ),
    "work": (
        "work job career employment professional employer workplace office occupation",
        "work job career employer employed company office boss manager colleague colleagues"
        " coworker team position title role promotion salary startup firm client clients"
        " project projects shift remote hybrid commute hired fired resign resigned intern"
        " internship contract contractor contractors freelance engineer developer nurse lawyer"
        " designer consultant analyst occupation profession employee employees"
        " staff codename"
        " workplace workforce personnel supervisor",
    ),
    "education": (
        "education school schooling studies study academic university uni college degree",
        "school university uni college degree bachelor master phd graduate graduated major minor"
        " course courses class classes study studied studying student exam thesis professor"
        " teacher teachers lecturer"
        " diploma campus tuition scholarship"
        " dissertation doctoral doctorate undergraduate postgraduate semester curriculum alumni dorm"
        " classmate classmates homework coursework",
    ),
    "location": (
        "location whereabouts address home residence living place where live neighborhood"
        " neighbourhood",
        "live living lives address street avenue road apartment flat house home moved move"
        " neighborhood neighbourhood village district zip postcode postal suburb downtown"
        " building floor door landlord houseplant plant plants garden balcony wifi router"
        " tenant tenants lease landlady housemate flatmate roommate entrance buzzer intercom doorbell"
        " parcel parcels residence residential bedroom",
    ),
    "contacts": (
        "contact contacts phone email people acquaintances address book who i know network",
        "phone mobile email telephone whatsapp contact contacts emergency friend"
        " friends best accountant lawyer plumber electrician mechanic dentist neighbour"
        " neighbor landlord babysitter tutor hairdresser barber",
    ),
    "identity": (
        "identity identifies identify identifying who i am personal id identification documents"
        " name birthday age",
        "nickname born birthday birth age passport ssn social"
        " security national gender pronouns nationality citizen citizenship tax native language"
        " religion religious political party shoe size"
        " birthplace ethnicity surname heritage",
    ),
    "food": (
        "food foods diet dietary eating meals cuisine drinks beverages",
        "food eat eating ate meal meals diet vegetarian vegan pescatarian keto dish dishes"
        " cuisine cook cooking bake baking restaurant breakfast lunch dinner snack coffee tea"
        " drink drinks beer wine cocktail juice spicy sweet dessert pizza caffeine decaf cup"
        " cups latte espresso"
        " sushi pasta chocolate"
        " culinary seafood noodles groceries recipe recipes chef barbecue supper dining diner cafe vodka"
        " whiskey liquor alcohol",
    ),
    "hobbies": (
        "hobby hobbies leisure pastime pastimes interests interest free time fun activities sport"
        " sports fitness exercise",
        "hobby hobbies play playing played collect collecting paint painting draw drawing"
        " knit knitting garden gardening hike hiking climb climbing photography chess guitar"
        " piano violin drum drums instrument sing singing dance dancing read reading book"
        " books novel author authors game games gaming video film films movie movies music band"
        " song songs concert podcast podcasts show shows tv series craft crafts fishing camping"
        " sport sports gym run running runner runs marathon jog jogging swim swimming cycling"
        " yoga pilates tennis football soccer basketball baseball golf hockey rugby volleyball"
        " boxing karate climbing bouldering ski skiing surf surfing squash badminton crossfit"
        " novelist writer writers literature fiction paperback album albums cinema documentary episodes"
        " ceramics crochet embroidery sewing quilting sculpture origami choir"
        " orchestra crossword sudoku karaoke trumpet saxophone flute percussion judo taekwondo"
        " cricket athletics weightlifting workout skating",
    ),
    "travel": (
        "travel travels traveling travelling trips trip vacation vacations holiday holidays",
        "travel traveled travelled traveling trip trips vacation holiday flight flights fly"
        " flew visit visited abroad passport airport airline airlines seat aisle flyer frequent"
        " luggage layover departure hotel tour cruise destination country countries"
        " lodging accommodation motel airplane aircraft airways baggage suitcase excursion voyage"
        " itinerary tourist tourists tourism visa boarding",
    ),
    "pets": (
        "pet pets animal animals",
        "pet pets dog dogs puppy cat cats kitten fish hamster rabbit parrot bird horse vet"
        " breed"
        " canine pup kitty veterinary hound",
    ),
    "beliefs": (
        "religion religious faith belief beliefs spiritual spirituality politics political"
        " views opinions ideology",
        "religion religious faith church mosque temple synagogue pray prayer god christian"
        " catholic protestant muslim jewish hindu buddhist atheist agnostic spiritual politics"
        " political vote voted voting party democrat republican liberal conservative"
        " progressive election"
        " worship congregation clergy pastor priest imam rabbi sermon theology devout secular ballot voter"
        " voters",
    ),
    "transport": (
        "transport transportation car cars vehicle vehicles driving get around getting around"
        " commuting mobility",
        "car cars vehicle drive drives driving drove truck suv motorbike motorcycle scooter bike"
        " bicycle plate licence license parking garage transit bus metro subway tram"
        " insurer tesla toyota honda ford bmw volkswagen"
        " automobile sedan motorway highway passenger",
    ),
    "schedule": (
        "schedule schedules routine routines appointments appointment calendar agenda timetable"
        " weekly daily plans",
        "schedule routine appointment appointments weekly daily wake alarm shift rehearsal"
        " pickup standing commute gym",
    ),
    "tech": (
        "tech technology technologies devices device gadgets gadget electronics digital online"
        " setup software computers",
        "laptop computer pc mac macbook windows linux os phone iphone android pixel samsung"
        " tablet ipad console playstation xbox nintendo switch speaker alexa echo smart"
        " streaming netflix spotify app apps github gitlab username password router"
        " wifi software keyboard headphones"
        " smartphone desktop hardware ios wireless",
    ),
    "accounts": (
        "accounts account passwords password credentials security logins login online",
        "password passwords pin passcode login username account accounts security question",
    ),
}


#: drug-name endings: a medication the lexicon has never seen is still about health
DRUG_SUFFIX = re.compile(
    r"^[a-z]{3,}(?:formin|cillin|mycin|cycline|pril|sartan|olol|statin|azole|prazole|oxetine|"
    r"pam|profen|triptan|dronate|parin|floxacin|vir|mab|tidine|gliptin|lukast|azepam|sone|"
    r"olone|afil|caine|dipine|clone|grel|osin|traline|zodone|zolam|prazole|setron|lamide|pram|apine|idone|"
    r"triptyline|trigine|racetam|thyroxine)$"
)

#: F4: words that name the same conclusion ("commute" is also asked as "travel between")
CONCEPT_SYNONYMS: dict[str, str] = {
    "commute": "commute commuting commuter travel travels trip trips journey journeys",
    "bilingual": "bilingual language languages speak speaks fluent multilingual",
    "income": "income salary earn earnings wage pay money wealthy rich bracket",
    "wealth": "wealth wealthy rich income money afford",
    "religion": "religion religious faith belief church pray worship",
    "politic": "politic political politics vote voting party leaning leftist conservative",
    "pregnant": "pregnant pregnancy expecting baby",
    "age": "age old born birthday birth year",
    "health": "health healthy sick condition illness medical",
    "relationship": "relationship partner dating married single spouse",
    "family": "family kids children parent",
    "nationality": "nationality citizen citizenship national passport origin",
    "diet": "diet eat eating vegetarian vegan food",
    "routine": "routine schedule daily habit",
    "neighbour": "neighbour neighbor neighbourhood neighborhood near nearby close",
    "distance": "distance far near close miles kilometres kilometers",
}


@lru_cache(maxsize=1)
def _compiled() -> tuple[dict[str, frozenset[str]], dict[str, frozenset[str]]]:
    names = {cat: frozenset(tokenize(words[0]) + tokenize(cat)) for cat, words in _LEXICON.items()}
    signals = {cat: frozenset(tokenize(words[1])) for cat, words in _LEXICON.items()}
    return names, signals


_PEOPLE = frozenset(tokenize(
    "mother mom mum father dad parent parents brother sister sibling son daughter grandmother"
    " grandma grandfather grandpa aunt uncle cousin niece nephew friend colleague neighbour"
    " neighbor partner wife husband"
))
_WHEREABOUTS = frozenset(tokenize("city town lives live living address street moved hometown"))


@lru_cache(maxsize=1)
def _signal_index() -> dict[str, frozenset[str]]:
    """token -> the categories it signals (one dict lookup per token at ingestion)."""
    _, signals = _compiled()
    out: dict[str, set[str]] = {}
    for cat, words in signals.items():
        for word in words:
            out.setdefault(word, set()).add(cat)
    return {w: frozenset(c) for w, c in out.items()}


def category_signal_words() -> frozenset[str]:
    """Every token that signals some category: the vocabulary of a life area, not a value."""
    return frozenset(_signal_index())


def category_names() -> list[str]:
    return sorted(_LEXICON)


def categories_in(description: str) -> list[str]:
    """Categories a request's description names ("my medical history" -> health)."""
    names, _ = _compiled()
    tokens = set(tokenize(description))
    scored = [(len(tokens & words), cat) for cat, words in names.items()]
    best = max((s for s, _ in scored), default=0)
    if best == 0:
        return []
    return sorted(cat for s, cat in scored if s == best)


def unit_categories(text: str, tokens: frozenset[str] | set[str] | None = None) -> frozenset[str]:
    """Every category a memory unit's text signals (possibly several, possibly none).

    All signalled categories, not only the strongest: "my dentist is Bright Smile Clinic"
    is health *and* a contact, and forgetting either category must take it (a missed unit
    leaves the value behind; an extra one is only deleted if its category is asked for).
    """
    by_word = _signal_index()
    tokens = set(tokenize(text)) if tokens is None else tokens
    found: set[str] = set()
    past = _past_tense_only(text, tokens, by_word)
    for token in tokens:
        cats = by_word.get(token)
        if cats and token not in past:
            found.update(cats)
    if "health" in found and _NOT_HEALTH.search(text) and not (tokens - {"health"}) & _health_signals():
        found.discard("health")  # "it comes with health insurance and a pension": a job's benefit
    if any(DRUG_SUFFIX.match(t) for t in tokens):
        found.add("health")
    has_digit = _HAS_DIGIT.search(text) is not None
    for category, pattern, screen in _PHRASE_SIGNALS:
        # (each pattern only where it can match: every unit passes here at ingestion)
        if (has_digit if screen == _DIGIT_SCREEN else screen in tokens) and pattern.search(text):
            found.add(category)
    if tokens & _PEOPLE and tokens & _WHEREABOUTS:
        found.add("contacts")  # where someone I know lives is part of how to reach them
    return frozenset(found)


_WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*")
#: "health" in a phrase that names no one's health
_NOT_HEALTH = re.compile(r"\bhealth\s+(?:insurance|cover|plan|fund|card|and\s+safety)\b", re.I)


@lru_cache(maxsize=1)
def _health_signals() -> frozenset[str]:
    """The health category's signal tokens."""
    return frozenset(t for t, cats in _signal_index().items() if "health" in cats)

_HAS_DIGIT = re.compile(r"\d")
#: the screen of a pattern that needs a digit (else: a token the text must hold)
_DIGIT_SCREEN = "<digit>"

#: (category, pattern, screen): terms whose words alone signal nothing: "I'll report back" is
#: not about work, "six direct reports" is
_PHRASE_SIGNALS = [
    ("work", re.compile(r"\bdirect\s+reports?\b", re.I), "report"),
    # a time of day is when something happens: "I'm up at 5:45 am", "we rehearse Sunday at 4 pm"
    ("schedule", re.compile(r"\b(?:[01]?\d|2[0-3])(?::[0-5]\d\s*(?:[ap]\.?m\b\.?)?|\s*[ap]\.?m\b\.?)", re.I),
     _DIGIT_SCREEN),
    # a dose: "clopidogrel 75 mg", "Tamsulosin 0.4 mg", "two 500mg tablets"
    ("health", re.compile(r"\b\d+(?:[.,]\d+)?\s?(?:mg|mcg|µg|iu)\b", re.I), _DIGIT_SCREEN),
    # an amount of money: "I'm on 81,750 euros a year", "$1,400", "NOK 12,000"
    ("finance", re.compile(r"[$€£¥₹]\s?\d|\b\d[\d,.]*\s?(?:k\s+)?(?:euros?|dollars?|pounds?|quid|kroner|krona|"
                           r"francs?|yen|rupees?|pesos?|zloty|lakh|usd|eur|gbp|nok|sek|dkk|chf|inr|aud|cad)\b", re.I),
     _DIGIT_SCREEN),
]


@lru_cache(maxsize=1)
def _signal_surface() -> frozenset[str]:
    """The signal words as the lexicon writes them ("married", "hired" are listed)."""
    return frozenset(w.lower() for _, signals in _LEXICON.values() for w in signals.split())


def _past_tense_only(text: str, tokens: set[str] | frozenset[str], by_word: dict[str, frozenset[str]]) -> set[str]:
    """Signal tokens the unit says only as a past tense the lexicon does not list: "the
    stack-and-sand trick worked" is not about work, "we booked it" not about books; "I got
    married" is (the lexicon lists "married"), and so is "I worked as a nurse"."""
    if "ed" not in text:
        return set()
    surface = _signal_surface()
    words = list(_WORD.finditer(text))
    # ("I worked as a nurse", "worked at Siemens", "played for Leeds": still the thing)
    past = {i for i, m in enumerate(words) if m.group(0).lower().endswith("ed") and m.group(0).lower() not in surface
            and not _ROLE_AFTER.match(text, m.end())}
    verb_only = {t for i in past for t in tokenize(words[i].group(0)) if t in by_word and t in tokens}
    if not verb_only:
        return set()
    other = {t for i, m in enumerate(words) if i not in past for t in tokenize(m.group(0))}
    return verb_only - other


_ROLE_AFTER = re.compile(r"\s+(?:as|at|for)\b", re.I)


@lru_cache(maxsize=1)
def attribute_synonyms() -> dict[str, frozenset[str]]:
    """token -> the tokens of its group in ``data/attribute_synonyms.txt`` (itself included):
    words that name the same kind of fact ("teeth", "dentist"; "computer", "laptop")."""
    text = resources.files("bemula.systems.erasemem").joinpath("data", "attribute_synonyms.txt").read_text(encoding="utf-8")
    groups: dict[str, frozenset[str]] = {}
    for line in text.splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        group = frozenset(tokenize(line))
        for token in group:
            groups[token] = groups.get(token, frozenset()) | group
    return groups


def concept_expansion(tokens: set[str]) -> set[str]:
    """Index tokens of the concepts that ``tokens`` mention, synonyms included."""
    out: set[str] = set()
    for head, words in CONCEPT_SYNONYMS.items():
        if tokens & set(tokenize(head)):  # the concept itself is named, not merely a neighbour
            out |= set(tokenize(words)) | set(tokenize(head))
    return out
