"""Deterministic intent detection: is this user turn a forget request, and of which type?

Works clause by clause. A clause is a *directive* when a removal verb is addressed to the
assistant (imperative position: sentence start, after "please"/"can you"/"I want you to",
or after a clause break) and its object points at memory ("my ...", "that I ...", "what I
said ...", "everything about ...", "from your memory"). Mentions of forgetting that are
not requests ("I forgot my keys", "don't forget my appointment", "how do I remove a
stain") are rejected by construction: wrong tense, negated, not addressed to the assistant,
or no memory object.

The type follows from the directive's object and the rest of the turn (SPEC §1):
F6 replacement when another clause states a change touching the target; F5 when the
object is speech in a time window; F4 when it is a conclusion/inference; F3 when it is
"everything about <a category>"; F2 when it lists several named things; else F1.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from enum import Enum

from bemula.systems.erasemem.categories import categories_in
from bemula.systems.erasemem.textutil import BULLET, literal_pattern, split_clauses, token_set
from bemula.systems.erasemem.tokens import STOPWORDS


class ForgetKind(str, Enum):
    """The six request types (values are the SPEC's labels, kept local: no bemula.model)."""

    FACT = "F1"
    FACTS = "F2"
    CATEGORY = "F3"
    CONCLUSION = "F4"
    TIME_WINDOW = "F5"
    REPLACEMENT = "F6"


@dataclass
class ForgetIntent:
    """What a forget request asks, as phrases (resolution against memory comes later)."""

    kind: ForgetKind
    targets: list[str] = field(default_factory=list)  # phrases naming what to forget
    categories: list[str] = field(default_factory=list)  # F3
    time_phrase: str = ""  # F5: the directive text holding the time reference
    statements: list[str] = field(default_factory=list)  # clauses that are not directives
    directives: list[str] = field(default_factory=list)  # the clauses that ask for removal
    new_value: str | None = None  # F6, when known up front (the LLM hook names it)
    #: the request as read (after the texting rewrites), so a pronoun can look for what was
    #: named before it; empty when another reader (the LLM hook) made the intent
    text: str = ""


# ----------------------------------------------------------------------------- directives

_ADDRESS = (
    # any word or two before an ask addressed to the assistant ("lowkey can u forget …",
    # "Therefore I ask you to forget …"), except a question word or a subject of its own
    # ("how could you forget …" is a complaint, "she can …" is not to us)
    r"(?:(?:(?!(?:how|why|what|when|where|who|which|whether|if|not|never|i|you|we|they|he|she|it|that|"
    r"someone|somebody|anyone|nobody|and|or|but|so|then|because|cos)\b)[a-z]+\s+){1,3}"
    r"(?=(?:can|could|would|will)\s+you\b|i\s+(?:want|need|ask)\s+you\b|i(?:'d|’d|\s+would|\s+should)\s+(?:like|love|prefer)\b))?"
    # chat fillers before the verb, unpunctuated: "hey quick q stop storing …", "um so wipe …"
    r"(?:(?:hey|hi|hiya|um+|uh+|erm?|hmm+|right|well|oh|ah|yeah|btw|actually|ugh|honestly|seriously|look|listen|assistant|"
    r"wait|hang\s+on|hold\s+on|oops|sorry|"
    r"quick\s+(?:q|question|one|thing|favou?r))"
    r",?\s+)*"
    r"(?:please\s+|kindly\s+|just\s+|now\s+|also\s+|and\s+|so\s+|then\s+|but\s+|ok(?:ay)?,?\s+)*"
    r"(?:(?:can|could|would|will)\s+you\s+(?:please\s+|kindly\s+|also\s+|just\s+)*"
    r"|(?:can|could|shall)\s+we\s+(?:please\s+|just\s+)*"
    r"|i(?:'d|’d| would| should)\s+(?:like|love|prefer|appreciate\s+it\s+if)\s+(?:it\s+if\s+)?(?:for\s+)?you\s+(?:to\s+)?"
    r"|i\s+(?:want|need|ask)\s+you\s+(?:to\s+)?|i(?:'m|’m| am)\s+asking\s+you\s+to\s+"
    # "I would be grateful if you erase …", "I'd feel happier if you'd forget …" ("I should be
    # grateful": the first person's formal "would")
    r"|i(?:'d|’d|\s+would|\s+should)\s+(?:feel\s+|be\s+)?(?:(?:very|really|so|most|much|truly)\s+)?(?:happier|better|grateful|"
    r"glad|thankful|relieved|more\s+comfortable)\s+if\s+you(?:'d|’d|\s+would|\s+could)?\s+"
    r"|you\s+(?:should|can|may|must|need\s+to)\s+|(?:it's|it is)\s+time\s+to\s+"
    r"|(?:make\s+sure\s+(?:to|you)\s+)|(?:go\s+ahead\s+and\s+))?"
    r"(?:please\s+|kindly\s+|also\s+|just\s+)*"
)
_REMOVE_VERBS = (
    r"forget|erase|delete|remove|wipe|purge|scrub|drop|discard|clear|unlearn|expunge|"
    r"scrap|scratch|bin|ditch|toss|dump|nix|nuke|junk|shred|trash|lose|cross\s+off|"
    r"un-?know|un-?remember|un-?file|memory-?hole|zap|chuck(?:\s+out)?|abandon|take\s+away|"
    r"get\s+rid\s+of|throw\s+(?:away|out)|let\s+go\s+of|strike|cross\s+out|take\s+out|"
    r"stop\s+(?:remembering|storing|keeping|using|tracking|saving|holding\s+on\s+to|holding(?=\s+(?:my|what|any|all|everything|anything|on\s+to|onto)\b)|retaining|"
    r"drawing|making|inferring|assuming|thinking|believing|presuming|concluding|deciding|guessing|speculating|"
    r"labell?ing\s+me|pegging\s+me)"
)
_NEGATED_KEEP = (
    # ("don't go putting two and two together")
    r"(?:don't|dont|don’t|do\s+not|never|no\s+longer|not)\s+(?:go\s+)?"
    r"(?:keep|store|remember|retain|save|hold\s+on\s+to|use|record|track|log|"
    r"hold(?=\s+(?:that|this|any|the)\s+(?:assumptions?|conclusions?|inferences?|ideas?|impressions?|views?)\b)|"
    r"keeping|storing|remembering|retaining|saving|using|recording|tracking|logging|"
    r"infer|deduce|conclude|assume|guess|speculate|draw|make|presume|derive|hang\s+on\s+to|"
    r"work(?:ing)?\s+out|figur(?:e|ing)\s+out|put(?:ting)?\s+together|piec(?:e|ing)\s+together|"
    r"put(?:ting)?\s+two\s+and\s+two\s+together|piec(?:e|ing)\s+(?:it\s+|things\s+|that\s+)?together|"
    r"put(?:ting)?\s+(?:those|these|them|it|that|things|the)(?:\s+two)?\s+together|"
    r"connect(?:ing)?|link(?:ing)?|join(?:ing)?\s+(?:the\s+)?dots)"
)
_NOT_WANTED = (
    r"i\s+(?:don't|dont|don’t|do\s+not|no\s+longer)\s+want\s+you\s+(?:to\s+)?"
    r"(?:remember\w*|keep\w*|stor\w*|know\w*|retain\w*|us(?:e|ing)|hav(?:e|ing)|hold\w*\s+on\s+to|"
    # "I don't want you holding the peanut thing"
    r"holding(?=\s+(?:the|my|that|this|those|these|any|his|her|their|onto)\b)|"
    r"infer\w*|conclud\w*|assum\w*|draw\w*|mak(?:e|ing)\s+(?:any\s+)?(?:conclusions?|assumptions?|"
    r"inferences?)|guess\w*|deduc\w*|figur\w*\s+out|work\w*\s+out|put\w*\s+together|"
    # "I don't want you adding it up": a total worked out from what was said
    r"add(?:ing)?\s+(?:it|them|that|those|these|everything|things|it\s+all)\s+up|total(?:l?ing)?\s+(?:it|them)\s+up)"
    r"|(?:it(?:'s|’s|\s+is|\s+would\s+be)\s+|is\s+)?better\s+(?:if\s+|that\s+)?you\s+(?:don't|dont|do\s+not|didn't|did\s+not)\s+"
    r"(?:have(?!\s+to\b)|keep|store|remember|hold(?=\s+(?:on\s*to|onto|anything|any|that|this|it|them|my|those|these)\b))"
    r"|i(?:'d|’d|\s+would)?\s+(?:\w+\s+)?(?:rather|prefer)\s+(?:that\s+)?you\s+"
    r"(?:didn't|did\s+not|not|don't|do\s+not|wouldn't|would\s+not)\s+"
    r"(?:remember|keep|store|know|retain|use|have|hold(?=\s+(?:on\s*to|onto|anything|any|that|this|it|them|my|those|these)\b)|"
    r"infer|conclude|assume|put\s+(?:\w+\s+){0,2}?together|draw)"
)
_CLAUSE_START = (r"(?:^|(?<=[,;:—–(])\s*|\s-\s|\b(?:and|so|but|then|also)\s+"
                 # "Until she makes up her mind please forget …": a "please" opens the ask mid-sentence
                 r"|(?<=\s)(?<!\bto\s)(?=please\s))")
_DIRECTIVE = re.compile(
    _CLAUSE_START + r"\s*" + _ADDRESS + r"(?P<verb>" + _REMOVE_VERBS + r"|" + _NEGATED_KEEP + r")\b"
    r"|" + r"(?P<verb2>" + _NOT_WANTED + r")\b",
    re.IGNORECASE,
)
# phrases that look like directives but are not requests to drop memory
_NOT_A_REQUEST = re.compile(
    r"\b(?:don't|dont|don’t|do\s+not|never|not|won't|wont)\s+forget\b|"
    r"\bforget\s+it\W+(?:never\s*mind|nevermind|it\s+doesn't\s+matter|not\s+important|the\s+weather)|"
    r"\blet(?:'s|’s| us)\s+forget\b|\b(?:can|could|shall)\s+we\s+(?:just\s+)?forget\s+ab+o+u+t+\b|"
    r"\bforget\s+about\s+(?:it|that|work|this)\s+for\b|"
    r"\bforgot\b|\bforgetful\b|\bforgotten\b(?!.*\?)|"
    # "forgive and forget"; "Meet Thursday — scratch that, I meant Tuesday": a word taken back
    r"\bforgive\s+and\s+forget\b|\b(?:scratch|strike)\s+that\W+(?:i\s+meant?|make\s+(?:it|that)|i\s+mean)\b|"
    # the user's own memory: "(I) don't remember the exact idiom", "can't remember whether …"
    r"(?:^|\bi\s+)(?:don't|dont|don’t|do\s+not|can't|cannot|can’t)\s+remember\s+(?:the\s+exact|exactly|whether|if|"
    r"which|how|where|when|who|the\s+name\s+of|what\s+(?!i\b))",
    re.IGNORECASE,
)
# words that make a verb's object point at what the assistant remembers
_MEMORY_OBJECT = re.compile(
    r"\b(?:my|mine|me|i|i'm|i’m|i've|i’ve|i'd|myself|we|our|that|what|everything|anything|all|"
    r"whatever|every|any|the\s+fact|detail|details|info|information|record|records|memory|"
    r"memories|note|notes|mention|conclusion|conclusions|assumption|assumptions|inference|"
    r"inferences|old\s+one|old\s+value|previous|earlier|it|him|her|them|the\s+(?:whole\s+)?lot|both)\b"
    r"|(?<!\w)'?em\b",
    re.IGNORECASE,
)
_DIRECT_VERBS = re.compile(r"^(?:forget|unlearn|stop\s+remembering|not\s+remember|never\s+remember)", re.I)


#: a removal verb about the task at hand, not about memory: "forget the formal tone and make
#: this friendly", "forget the word count for a second", "erase the jargon and say this
#: plainly" — the object is followed by the task or by "for a moment"
_TASK_TALK = re.compile(
    r"^\s*(?:(?!\b(?:my|me|i|mine|our|we|us|told|said|mentioned|shared|gave|about\s+me)\b)[^.?!;:])*?"
    r"(?:\bfor\s+(?:(?:a|one)\s+)?(?:second|sec|minute|moment|bit)\b"
    # "forget the budget and the timeline for now, just brainstorm"
    r"|\bfor\s+now\b\s*[,;:.!]?\s*(?:and\s+)?(?:just\s+)?(?:brainstorm|write|tell|give|make|focus|help|suggest|explain|"
    r"list|plan|draft|think|come\s+up)\b"
    r"|\band\s+(?:just\s+)?(?:tell|make|write|say|give|suggest|recommend|find|swap|"
    r"explain|show|list|rewrite|turn|put|keep\s+it|use|do|go\s+with|start)\b|\s*[.!]\s+(?:write|tell|give|make|"
    r"explain|list|say|rewrite|rank|sort|order|compare|translate|"
    r"summari[sz]e|check|fix|suggest|recommend|pick|choose|plan|draft)\b"
    # a question as the next task: "Forget rhyming. What rhymes with orange?" (a question
    # mark needed: "… don't keep it. Is not that it was false." explains the request)
    r"|\s*[.!]\s+(?:does|is|can\s+you|could\s+you|what|how)\b[^.!?]*\?"
    r"|\s*[;:]\s+(?:write|tell|give|make|explain|list|say|rewrite|rank|sort|order|compare|translate|summari[sz]e|"
    r"check|fix|suggest|recommend|pick|choose|plan|draft)\b"
    # (a question after the colon: "forget the budget: which venue is cheapest?"; not a list
    # of what to forget, "forget all of that, please: what it is, the tablets, …")
    r"|\s*[;:]\s+(?:is\s+it|which|what)\b[^.!]*\?"
    r"|,\s*(?:can|could)\s+you\s+(?:write|make|give))",
    re.I,
)
#: an object taken out of the assistant's memory by name: "… from your records", "… from ur memory"
_FROM_MEMORY = re.compile(r"\b(?:from|out\s+of)\s+(?:your|ur|the)\s+(?:memory|memories|records?|notes?|files?)\b", re.I)
#: someone else's plan ("the trust wants to … scrap our requests"): not addressed to us
_THIRD_PARTY_PLAN = re.compile(
    r"\b(?!(?:i|you|we)\b)[a-z]+\s+(?:wants?|plans?|decided|is\s+going|are\s+going|intends?|hopes?)\s+to\b[^.?!]*$",
    re.I,
)


#: nouns that name a piece of personal data: "erase the policy number" is about memory
_PERSONAL_DATA = (
    r"numbers?|address(?:es)?|names?|nicknames?|codes?|pins?|passwords?|passcodes?|e-?mails?|phones?|"
    r"mobiles?|dates?|birthdays?|figures?|amounts?|salary|salaries|income|ids?|accounts?|diagnos[ie]s|"
    r"plates?|registrations?|policy|policies|passports?|licen[cs]es?|postcodes?|zip|balances?|debts?|"
    r"loans?|prescriptions?|medications?|meds|doses?|allerg(?:y|ies)|results?|readings?|weights?|"
    r"heights?|ages?|handles?|usernames?|logins?|combos?|combinations?|locations?|workplaces?"
)
#: negated keeping needs no other sign that its object is memory ("don't remember the alarm
#: code"); "don't use the formal tone" does, so "use" is not among these
_NEGATED_MEMORY_VERB = re.compile(
    r"^(?:don't|dont|don’t|do\s+not|never|no\s+longer|not)\s+(?:keep|store|remember|retain|save|record|"
    r"track|log|keeping|storing|remembering|retaining|saving|recording|tracking|logging|hold\s+on\s+to)", re.I)


#: "is this about something the memory holds?" — a target phrase in, yes or no out
Known = Callable[[str], bool]


def _names_a_thing(obj: str) -> bool:
    """An object that names something itself, not by pronoun ("that", "all of it"), by
    quantity ("everything about …", "any of the health stuff") or by what was said."""
    stripped = re.sub(r"^(?:about\s+|of\s+)", "", obj.strip(), flags=re.I)
    target = clean_target(stripped)
    return bool(target) and _names_something(target) and not (
        _QUANTIFIED.match(stripped) or _CATEGORY_OBJECT.match(stripped) or _STUFF.match(target)
        or _SPEECH.search(stripped))


def _changed_value(rest: str, others: list[str]) -> bool:
    """An object the same turn tells a change about: "I no longer take metformin, it's been
    switched to Jardiance. Please erase the metformin."; "my email changed … get rid of the
    gmail one". Removing it is about memory however plain it is ("the metformin")."""
    told = [o for o in others if _CHANGE.search(o)]
    if not told:
        return False
    target = clean_target(rest)
    if re.match(r"^(?:the|my|that)\s+(?:[\w'’@.-]+\s+){1,3}one\b", target, re.I):
        return True  # "the gmail one": the one the change replaced
    words = token_set(target) - {"old", "previous", "former", "one"}
    return bool(words) and words <= set().union(*(token_set(o) for o in told))


def _find_directive(clause: str, known: Known | None = None, others: list[str] | None = None) -> re.Match[str] | None:
    """The removal directive in ``clause``, if it asks to remove something memory holds
    (``others``: the turn's other clauses, which may tell of the change it removes)."""
    if _NOT_A_REQUEST.search(clause) and not re.search(
        r"\b(?:forget|erase|delete|remove|wipe)\s+(?:that|what|everything|anything|all|my)\b.*", clause, re.I
    ):
        return None
    for match in _DIRECTIVE.finditer(clause):
        verb = (match.group("verb") or match.group("verb2") or "").lower()
        rest = clause[match.end():]
        if verb.startswith(("forget", "unlearn", "stop remembering")) and re.match(r"\s*(?:to|about\s+it)\b", rest, re.I):
            continue  # "forget to call", "forget about it"
        if re.search(r"\b(?:together|dots)$", verb) and (not rest.strip(" .!?,;:") or re.match(
                r"\s*(?:on|about|from|with|over)\s+(?:that|this|it|those|these|them)\b", rest, re.I)):
            # "don't put those two together.", "Don't go putting two and two together on that,
            # eh.": the conclusion from what was said
            return match
        if not rest.strip(" .!?,;:") and not rest.rstrip().endswith(":"):
            continue  # (a colon: the list after it is the object, "a few items i'd rather you not keep:")
        if (_TASK_TALK.match(rest) and not _FROM_MEMORY.search(rest)) or _THIRD_PARTY_PLAN.search(clause[: match.start()]):
            continue  # ("remove the former surname from your records and use the new one": memory)
        if not match.group("verb2") and _not_a_memory_object(rest, verb):
            continue  # "delete the second paragraph of my cover letter", "don't keep me waiting"
        if match.group("verb2") and _PHYSICAL_PLACE.match(rest):
            continue  # "better that you don't keep the receipt in your wallet"
        # "remove the onions from that recipe": a removal verb on a non-memory object
        if not re.search(
            r"\b(?:my|mine|me|i|i'm|i’m|i've|i’ve|that\s+i|what\s+i|about\s+me|memory|memories|records?|our|we|conversations?|chats?|sessions?|"
            r"everything|anything|whatever|the\s+fact|info|information|details?|notes?|conclusions?|"
            # "delete the thing about who she's dating": something told, whoever it is about
            r"(?:thing|bit|stuff|part)\s+(?:about|with)|"
            # "clear out all this bidding business": an affair of the user's, named as one
            r"(?:all\s+)?(?:this|that)\s+(?:whole\s+)?(?:[\w-]+\s+){0,2}(?:business|saga|drama|palaver|carry-on|rigmarole|"
            r"malarkey|situation)|"
            # "Could you wipe that whole night?": what was said then
            r"(?:that|this|the)\s+(?:whole\s+|entire\s+)?(?:night|evening|conversation|convo|chat|session|exchange)\b|"
            r"assumptions?|inferences?|ideas?|impressions?|notions?|old\s+one|what\s+you\s+know|you\s+know|you\s+have|you've|"
            r"you\s+had|you\s+hold|you\s+kept|you\s+noted|you\s+got|"
            r"you\s+stored|you\s+saved|from\s+(?:your|the)\s+(?:memory|memories|notes?|records?|files?|system|"
            r"database|head|mind|brain|logs?|history|profile|storage)|" + _PERSONAL_DATA + r")\b"
            r"|^\s*(?:both|(?:all|those|these|the)\s+(?:two|three|four))\b(?:\s+of\s+(?:them|those|these|'em))?\s*(?:[,.!?;:]|$|please\b|"
            r"(?:and|but)\b|too\b|as\s+well|for\s+good|out\b|now\b)"
            r"|^\s*(?:only\s+|just\s+)?(?:(?:any|all|each|every\s+(?:one|bit|part|piece|word|detail)|some|none)\s+of\s+)?"
            r"(?:it|them|those|these|this|that|the\s+(?:whole\s+)?lot)\b\s*(?:one|bit|part|"
            r"thing|stuff|detail|both|all|too|as\s+well|please|for\s+me|"
            r"completely|entirely|altogether|for\s+good|permanently|now|out|away|off)?"
            r"\s*(?:[,.!?;:]|$|(?:and|but)\b)",
            rest,
            re.I,
        ) and not re.match(r"\s+(?:the\s+|my\s+)?(?:[A-Z][A-Za-z]+|[A-Za-z-]*\d)|\s+(?:the\s+)?(?:(?:two|three|both|other)\s+)?"
                           r"(?:old|previous|former|earlier)\b", rest):
            # no sign the object is personal: a removal verb ("remove the onions") is not a
            # request; "don't keep X" is; "forget X" is if X is something memory holds
            # ("forget the coffee"), not the task at hand ("forget the formal tone and …")
            if _NEGATED_MEMORY_VERB.match(verb) or match.group("verb2"):
                return match  # "don't store if the newborn is a girl": keeping is about memory
            if (known is not None and re.match(r"\s+(?:the|my|that)\s+(?:[\w'’-]+\s+){1,3}one\b", rest, re.I)
                    and known(re.sub(r"\bone\b.*$", "", clean_target(rest)))):
                return match  # "bin the cottage wifi one", "drop the hall one": one of the user's things
            if re.match(r"\s*(?:him|her)\b", rest, re.I) and re.search(
                    r"\b(?:the|my|our)\s+(?:old|previous|former|last)\s+[\w'’-]+\s*,\s*$", clause[: match.start()], re.I):
                return match  # "… and the old one, you can drop him completely": the person said first
            if known is not None and re.match(r"\s*(?:him|her)\s*(?:[.!?,;]|$|please\b|completely\b|entirely\b|too\b)",
                                              rest, re.I) and known(rest.strip(" .!?,;").split()[0]):
                return match  # "Sandy … wipe him": a person the message names and memory holds
            if (known is not None and re.match(r"\s+(?!(?:it|that|what|there|here|who|he|she|let)(?:'s|’s))[a-z]+(?:'s|’s)\s+\w", rest, re.I)
                    and _names_a_thing(rest) and known(clean_target(rest))):
                return match  # "delete marcus's bday": a person's thing memory holds
            if (known is not None and re.match(r"\s+(?:his|her|their|its)\s+\w", rest, re.I)
                    and not re.match(r"\s+\w+\s+(?:[\w-]+\s+){0,2}?" + _ARTEFACT + r"\b", rest, re.I)
                    and _names_a_thing(rest) and known(clean_target(rest))):
                return match  # "could you remove his blood type": someone's fact memory holds
            if others and _changed_value(rest, others):
                return match
            if not _DIRECT_VERBS.match(verb) or (known is not None and _names_a_thing(rest)
                                                 and not known(clean_target(rest))):
                continue
        return match
    return None


#: a piece of a text or of the conversation: what an editing or chat instruction removes
_ARTEFACT = (
    r"(?:best[- ]man\s+|wedding\s+|cover\s+)?(?:speech|essay|letter|poem|draft|message|msg|post|paragraph|page|text|"
    r"document|doc|slides?|cv|resume|résumé|report|story|sentence|recipe|spreadsheet|script|intro|introduction|"
    r"outline|layout|format|formatting|wording|tone|version|answer|question|idea|suggestion|option|comments?|"
    r"typos?|emojis?|greeting|sign[- ]?off|heading|title|caption|bio|tweet|reply|list|bullet(?:\s+points?)?|"
    r"line|lines|word|words|doodles?|plan|notes\s+app|footer|header|newsletter|flyer|poster|website|signature|invoice|"
    r"brochure|menu|banner|template|form|photo|video|file|folder|screenshot|playlist|summary|section|abstract|headline)"
)
#: things the user keeps elsewhere that a task edits: "from my calendar", "from this playlist"
_CONTAINER = r"(?:calendar|diary|agenda|planner|playlists?|inbox|folder|album|ideas|basket|cart)"
#: "the second paragraph of my cover letter", "the jokes from my best-man speech", "my
#: comments from this paragraph": a part taken out of a text, not a fact out of memory
_PART_OF_TEXT = re.compile(
    r"\b(?:of|from|in)\s+(?:my|this|the|that|your|our)\s+(?:[\w'’-]+\s+){0,2}?" + _ARTEFACT + r"\b"
    r"|\b(?:from|in)\s+(?:my|this|the|that|your|our)\s+(?:[\w'’-]+\s+){0,2}?" + _CONTAINER + r"\b"
    r"|\bon\s+(?:my|the|your|our)\s+(?:calendar|diary|agenda|planner)\b"
    r"|\b(?:from|in|of)\s+this\s*[:?!.]|[:]\s*['\"“‘]"
    # "from this CSV", "from this rant before I post it": something pasted into the chat
    # (not a time: "everything from this morning's chat")
    r"|\b(?:from|in)\s+this\s+(?!(?:conversation|chat|session|thread|memory|list\s+of\s+facts|morning|afternoon|evening|"
    r"week|weekend|month|year|time|case|way|life|job|house|flat|city|town|country|world|family)\b|"
    r"(?:morning|afternoon|evening|week|weekend|month|year)s?['’]?s?\b)[\w-]+", re.I)
#: words that may follow a noun phrase's head (so a word that is none of these after an
#: artefact word makes that word a modifier)
_AFTER_HEAD = (r"about|for|from|of|to|in|on|at|with|by|into|onto|and|or|but|nor|please|pls|too|as|than|that|"
               r"which|who|whom|whose|where|when|i|you|we|it|they|he|she|is|was|were|are|be|been|has|had|have|"
               r"again|also|anymore|any|now|then|so|if|because|since|entirely|completely|altogether|either|"
               r"here|there|above|below|earlier|before|after|yesterday|today|tonight|just|only|though|"
               r"thanks|thank|away|out|off|up|down|over|instead|already|still|anyway|right|ok|okay")
#: "my last draft", "my earlier suggestion about a picnic", "my second option", "my tone
#: in the last message": a thing said in the chat, named as a thing of the chat
_CHAT_THING = re.compile(
    r"^\s*(?:my|the|that|this|those|these)\s+(?:(?:last|earlier|previous|first|second|third|old|original|"
    r"whole|current|new|whiteboard|[\w-]+)\s+){0,2}?" + _ARTEFACT + r"\b"
    # (the artefact is the head noun: "my signature dish" is a dish, "my photo album" an album)
    r"(?!\s+(?!(?:" + _AFTER_HEAD + r")\b)[a-z][\w-]*\b(?!['’]))"
    r"(?!\s+(?:about|for|regarding|on|to|of)\s+(?:what|where|who|which|how|when|my|me)\b"
    r"|\s+that\s+(?:i|i'm|i’m|my)\b)", re.I)  # "the idea that I'm Catholic" is about the user
#: the user as the object ("don't keep me waiting", "don't remember me as grumpy"), and a
#: question the user asked ("forget what I asked"): neither is a fact to drop
_NOT_A_FACT = re.compile(r"^\s*(?:me|us)\b(?!\s+(?:at|about|telling|saying|mentioning|sharing|giving)\b)"
                         r"|^\s*what\s+i\s+(?:just\s+)?asked\b", re.I)
#: a message that opens by waving something off: "Forget it, …", "oh forget it."
_DISMISSAL = re.compile(r"^\W*(?:(?:oh|ah|ugh|ok|okay|actually|never\s*mind)\W+)?forget\s+it\b\s*(?:[,.!;—–-]|$)", re.I)
#: a slot of time the user wants free: "clear my Friday afternoon", "wipe next Monday"
_TIME_SLOT = re.compile(
    r"^\s*(?:my|the|next|this|all\s+of|everything\s+(?:on|for|in))?\s*(?:next\s+|this\s+)?"
    r"(?:mon|tues|wednes|thurs|fri|satur|sun)day(?:\s+(?:morning|afternoon|evening|night))?\s*"
    r"(?:[,.!?;]|$|(?:i'm|i\s+am|so|because|for)\b)", re.I)
#: a physical place for a thing ("don't store the dishes in the oven")
_PHYSICAL_PLACE = re.compile(
    r"^\s*(?:the|my|your|our|any|those|these)\s+(?:[\w'’-]+\s+){0,3}?(?:in|on|under|inside|behind|near|by|at)\s+"
    r"(?:the|a|an|my|your|our)\s+(?:[\w-]+\s+)?(?:oven|fridge|freezer|cupboard|garage|shed|car|drawer|attic|loft|"
    r"basement|cellar|kitchen|bathroom|sink|box|bag|wallet|purse|pocket|boot|trunk|closet|wardrobe|pantry|counter|sun|heat|window|"
    r"garden|hallway|porch|balcony|shelf|dishwasher|microwave)\b", re.I)


#: where a category request's exception begins ("my home, apart from which town I live in")
_EXCEPT_TAIL = re.compile(r",?\s+(?:apart\s+from|except|but\s+not|other\s+than|all\s+except|besides|"
                          r"(?:but|though)\s+(?:please\s+)?keep|the\s+(?:one\s+|only\s+)?exception\s+(?:is|being))\b", re.I)


_BITS_ABOUT = re.compile(r"^(?:the\s+)?(?:things|stuff|bits)\s+(?:about|on|regarding)\s+"
                         r"(?P<desc>(?:my|our)\s+[\w-]+(?:\s+[\w-]+)?)\W*$", re.I)
#: a statement that keeps one thing back: "The only thing worth keeping is the airline"
_ONLY_KEEP = re.compile(r"\b(?:the\s+)?only\s+(?:thing|one|bit)\b[^.;!?]*?\b(?:worth\s+keeping|(?:i\s+)?(?:still\s+)?"
                        r"(?:need|want)(?:\s+you)?\s+to\s+keep|to\s+keep)\b|\bkeep\s+only\b", re.I)
#: a description that names a value outright (a capitalised name or a number) is not a category
_NAMED_VALUE = re.compile(r"\d|(?<!^)\b[A-Z][a-z]")
#: a description of many kinds of thing ends in a plural ("my gadgets and online accounts",
#: "the holiday and flight plans"); "my phone number and email" lists facts, "my address" is one
_ENDS_IN_PLURAL = re.compile(r"\b\w{2,}[^\Wsuio]s\W*$", re.I)


def before_exception(description: str) -> str:
    """What a category request describes, without the exception it makes."""
    return _EXCEPT_TAIL.split(description)[0]


#: "the plan we actually picked", "the option I went with": a thing of the user's life the
#: user chose, not a text the chat wrote ("the plan you drafted")
_CHOSEN_BY_US = re.compile(r"^\s*(?:the|my|our)\s+\w+\s+(?:that\s+|which\s+)?(?:we|i)\s+(?:\w+ly\s+)?(?:picked|chose|"
                           r"went\s+with|signed\s+up\s+for|bought|took\s+out|settled\s+on|ended\s+up\s+with)\b", re.I)


def _not_a_memory_object(rest: str, verb: str) -> bool:
    """The removal verb's object is a part of a text, a thing of the chat, the user, or a
    physical thing in a place: an instruction about the task at hand, not about memory."""
    obj = rest.strip()
    if _NOT_A_FACT.match(obj):
        return True
    if re.match(r"^\s*(?:what\b|(?:the|that|this|any)\s+(?:\w+\s+)?(?:details?|info|information|things?|bit|stuff|"
                r"part|facts?)\b)", obj, re.I):
        return False  # "the personal detail in my last message": something the user told
    quoted = re.search(r"['\"“‘][^'\"”’]*(?:\s+\S+){2,}[^'\"”’]*['\"”’]", rest)
    if quoted and re.search(r"\bthis\b|:", rest[: quoted.start()]):
        return True  # "remove my typos from this: 'teh meeting is tommorow'"
    if _PART_OF_TEXT.search(re.split(r";|,\s+(?=(?:it's|its|it\s+is|i|i'm|i’m|and\s+i|because|cos|since|as)\b)", obj)[0]):
        return True  # (the object, not the reason after it: "wipe all of it, its all changing … the old version")
    if _TIME_SLOT.match(obj) or re.match(r"^(?:my|the)\s+(?:calendar|diary|agenda|planner)\s+(?:for|on|next|this)\b", obj, re.I):
        return True  # "clear my Friday afternoon", "clear my calendar for Friday": a calendar, not memory
    if _CHAT_THING.match(obj) and not re.match(r"^\s*(?:my|the)\s+(?:old|previous|earlier|outdated|former|last)\s+"
                                               r"(?:answer|one|value|version)\b(?!\s+(?:in|to)\s+the\b)", obj, re.I) and not (
            _CHOSEN_BY_US.match(obj)):
        return True
    return bool(re.match(r"(?:don't|dont|don’t|do\s+not|never)\s+(?:store|keep)", verb, re.I)
                and _PHYSICAL_PLACE.match(obj))


# ----------------------------------------------------------------------------- targets

_LEAD_STRIP = [
    r"(?:me|us)\s+(?:telling|saying|mentioning|sharing|giving)\s+(?:you\s+)?(?:about\s+)?",  # "forget me telling you X"
    r"(?:or|and)\s+(?:use|keep|store|remember|retain|save|rely\s+on)\s+",
    r"(?:only|just)\s+(?=(?:this|that|it|these|those)\b)",  # "remove only this"
    r"(?:about|on|of|regarding)\s+",
    r"both\s+",
    r"(?:any|all|every|each|the|your)\s+(?:conclusions?|assumptions?|inferences?|guess(?:es)?|"
    r"deductions?|speculations?)\s+(?:(?:that\s+)?you(?:'ve|’ve|\s+have|\s+might\s+have|\s+could\s+have)?\s+"
    r"(?:made|drawn|reached|formed|make|draw|reach|form)\s+)?(?:about|regarding|on|concerning|as\s+to|that|from)\s+",
    r"(?:conclusions?|assumptions?|inferences?)\s+(?:about|regarding|on|concerning|as\s+to)\s+",
    r"(?:anything|everything|whatever|all|things?)\s+(?:you(?:'ve|’ve|\s+have)?\s+(?:know|knew|have|"
    r"remember|inferred|concluded|stored|saved|learned|learnt|noted)\s+)?(?:about|regarding|on|concerning|"
    r"related\s+to|relating\s+to|to\s+do\s+with|connected\s+to|involving|that\s+has\s+to\s+do\s+with)\s+",
    r"the\s+fact\s+that\s+",
    r"(?:the|that|this)\s+(?:detail|info|information|part|bit|thing|note|record|mention|fact|"
    r"entry|line|stuff)s?\s+(?:about|of|on|regarding|that|where)\s+",
    # "what came up about my cycling setup"
    r"(?:what|anything|whatever|everything)\s+(?:came\s+up|got\s+said|was\s+said|i\s+said)\s+"
    r"(?:about|regarding|on|concerning)\s+",
    r"what\s+i(?:'ve|’ve|\s+have)?\s+(?:said|told\s+you|mentioned|shared|wrote|noted)\s+"
    r"(?:about|regarding|on|concerning)\s+",
    # ("wipe that pls", "keep that anywhere": that, not "please" or "anywhere")
    r"that\s+(?!(?:please|pls|plz|thanks|thx|too|now|for\s+me|anywhere|going\s+forward|from\s+now\s+on)\b)",
    # the verb's particle: "clear out everything medical", "wipe off all the …"
    r"(?:out|away|off|up)\s+(?=(?:everything|anything|all|whatever|every|any|my|the)\b)",
    # an enumerator: "(2) The Lånekassen figure", "b) my badge number", "2. the code"
    r"(?:\(\s*(?:\d{1,2}|[a-h])\s*\)|(?:\d{1,2}|[a-h])[).])\s+",
]
_TAIL_STRIP = [
    # "(don't keep) that anywhere", "(not be remembered) going forward": where or how long, not what
    r"\s+(?:anywhere|going\s+forward|from\s+now\s+on)\s*$",
    # "(not to share) his home address with anyone": with whom it is shared is no part of it
    r"\s+with\s+(?:anyone|anybody|everyone|everybody|other\s+people|others|people)\b.*$",
    # "the date I gave you for it so I don't get muddled": why, not what
    r"\s+so\s+(?:that\s+)?(?:i|we)\s+(?:don't|dont|don’t|do\s+not|won't|wont|won’t|can't|cant|can’t)\b.*$",
    # "… really shouldn't be in your records"
    r"\s+(?:really\s+|just\s+)?(?:shouldn't|should\s+not|mustn't|must\s+not|doesn't\s+need\s+to|"
    r"does\s+not\s+need\s+to)\s+(?:be|stay|sit|live)\b.*$",
    r"\s+at\s+all\s*$",
    r"\s+from\s+(?:everything|anything|all|what|whatever)\s+(?:(?:that\s+)?you|i)\b.*$",
    r",?\s+(?:all|each|every\s+one|both)\s+of\s+(?:it|them|that|those)\s*$",
    r",\s+(?:the\s+|my\s+)?(?:new|current|updated|correct)\b.*$",
    r",\s+(?:i|it)\s+(?:don't|do\s+not|no\s+longer)\b.*$",
    # "the medication stuff, that's between us and the vet": a comment on it, not more of it
    r",\s+(?:that's|that’s|that\s+is|it's|it’s|it\s+is|which\s+is)\s+(?!(?:my|the|our)\b)\w.*$",
    # "forget that footrest order number, the chair one's still live": what stays
    r",\s+(?:but\s+)?(?:the|my)\s+[^,.;!?]+?(?:'s|’s|\s+is|\s+are)\s+(?:still\s+\w+|fine|staying|current)\b.*$",
    r"\s+if\s+you\s+(?:have|kept|stored|made|drew)\b.*$",
    r"\s+(?:and|but)\s+(?:never|don't|do\s+not|please|won't|stop|not)\b.*$",
    r"\s+(?:and|but)\s+(?:please\s+)?(?:remember|keep|note|store|record|save|use|log|track)\b.*$",
    r"\s+(?:from|frm|out\s+of)\s+(?:(?:your|ur|the|my)\s+)?(?:memory|memories|records?|notes?|database|files?|system|mind|"
    r"head|storage|profile|history|picture\s+of\s+me|idea\s+of\s+me|image\s+of\s+me)\b.*$",
    r"\s+from\s+(?:what|everything|anything|the\s+things?)\s+i(?:'ve|’ve|\s+have)?\s+(?:said|told\s+you|"
    r"mentioned|shared)\b.*$",
    r"\s+(?:on|in)\s+(?:record|file|memory)\b.*$",
    # "replace the old company in your memory", "the amlodipine in whatever you have on me"
    r"\s+in\s+(?:your|the)\s+(?:memory|notes?|records?|files?)\b.*$",
    r"\s+in\s+(?:whatever|what|everything)\s+you(?:'ve|’ve)?\s+(?:have|got|keep|stored?)\b.*$",
    # "you don't need to keep that address for anything anymore"
    r"\s+for\s+(?:anything|everything|any\s+reason|any\s+purpose)\b.*$",
    # (Tagalog "para …": so that …, "wag mo na i-keep para hindi ako malito")
    r"\s+para\s+(?:hindi|di|walang|wala|ako|makalimutan)\b.*$",
    # "get rid of those pls in case my gf ever sees": why is no part of the target
    r"\s+(?:in\s+case|because|cause|cos|bc|so\s+that)\s+(?:i|my|you|u|he|she|they|we|it|someone|anyone)\b.*$",
    # "I don't want all that kept somewhere": where it would be kept is no part of the target
    r"\s+(?:somewhere|anywhere|around|about\s+the\s+place|here|in\s+here|on\s+here)\s*$",
    r"\s+(?:any\s*more|anymore|any\s+longer|for\s+good|permanently|entirely|completely|as\s+well|too|right\s+away|"
    r"forever|immediately|please|thanks|thank\s+you|if\s+you\s+can|if\s+you\s+could|altogether|everywhere)\s*$",
]
_QUANTIFIED = re.compile(
    r"^(?:anything|everything|whatever|all|every\s+(?:detail|thing|fact|bit)|any\s+(?:detail|info|"
    r"information|fact|details|facts)|all\s+(?:the\s+)?(?:info|information|details|facts|data|things|"
    r"notes|stuff)(?:\s+you\s+have)?)\b",
    re.I,
)
_CATEGORY_OBJECT = re.compile(
    r"^(?:(?:anything|everything|whatever|(?:all|every\s+bit|any)\s+of\s+it|all|every\s+\w+|any\s+\w+|all\s+(?:the\s+)?\w+|"
    r"(?:the\s+)?(?:things|stuff|bits|details)(?=\s+(?:you|i)\b))"
    r"(?:\s+you(?:'ve|’ve|\s+have)?\s+(?:know|have|got|stored|saved|learned|learnt|noted))?"
    r"(?:\s+(?:i(?:'ve|’ve|\s+have)?\s+(?:told\s+you|said|shared|mentioned)))?"
    r"\s+(?:about|regarding|on|concerning|related\s+to|relating\s+to|to\s+do\s+with|connected\s+to|"
    r"involving|around|linked\s+to|that\s+has\s+to\s+do\s+with)\s+)(?P<desc>.+)$",
    re.I,
)
_SPEECH = re.compile(
    r"\b(?:told|said|mentioned|shared|talked|discussed|wrote|typed|say|tell|conversation|"
    r"conversations|chat|chats|session|sessions|discussion|exchange|talk)\b",
    re.I,
)
_CONCLUSION = re.compile(
    # ("my husband has now concluded his treatment" finished something; he drew no conclusion)
    r"\b(?:(?<!\bhas\s)(?<!\bhave\s)(?<!\bhad\s)(?<!\bnow\s)conclu\w*|infer\w*|deduc\w*|assum\w*|guess\w*|speculat\w*|presum\w*|derive\w*|"
    r"put(?:ting)?\s+two\s+and\s+two|put(?:ting)?\s+(?:\w+\s+){0,2}?together|worked\s+out|work\s+out|"
    r"add(?:ing|ed)?\s+(?:it|them|that|those|these|everything|it\s+all)\s+up|"
    r"figured?\s+out|piec(?:ed|ing)\s+(?:\w+\s+)?together|connect(?:ing)?\s+the\s+dots|theor(?:y|ies|is\w*)|"
    # "whatever you figured about me from what I said"
    r"(?:you|u)(?:'ve|’ve|\s+have)?\s+(?:figured|reckoned|gathered)\s+(?:about|of)\s+me|"
    # "don't connect my new job and the move", "don't link those two"
    r"(?:don't|dont|don’t|do\s+not|never|not)\s+(?:connect|link|join)\w*\b|join(?:ing)?\s+(?:the\s+)?dots|"
    r"read\s+into|draw(?:ing|n)?\s+(?:any\s+)?(?:conclusions?|inferences?)"
    # "stop thinking I'm a student", "drop that idea", "the impression that I'm …"
    r"|(?:thinking|believing)\s+(?:that\s+)?i(?:'m|’m|\s+am)\b|\b(?:that|this|the)\s+(?:idea|impression|notion)\b)",
    re.I,
)
_CHANGE = re.compile(
    r"\b(?:no\s+longer|any\s*more|anymore|switched|switching|switch|swap|swapped|changed|change|migrated|migrating|"
    r"moved|from\s+now\s+on|(?:is|are|'s)\s+now|now\s+(?:it's|it\s+is|i|my)|instead|replaced|replace|"
    r"replacing|new\s+one|new\s+value|these\s+days|nowadays|used\s+to|not\s+\w+\s+but|stopped|quit|"
    r"gave\s+up|upgraded|traded|correction|corrected|update|updated|sold|cancell?ed|joined|picked\s+up|"
    r"bought\s+(?:a|an)\s+new|ended\s+up(?:\s+being)?|from\s+here\s+on|going\s+forward|from\s+today|"
    r"now,\s+not|relocat\w*|(?:went|gone|goes|go)\s+(?:up|down)|"
    # "my salary is 55k now after the raise", "out of date", "I wrote my birthday wrong before"
    r"(?:is|are|'s|’s)\s+(?:[\w£$€.,]+\s+){1,2}now\b|out\s+of\s+date|outdated|not\s+(?:valid|true|correct)\s+any\s*more|"
    r"wrote\s+(?:[\w'’]+\s+){0,3}?wrong|went\s+(?:fully|completely|full[- ]time|part[- ]time)\b|"
    # a date moved: "I've deferred the exam", "pushed the test back", "I'm now sitting it on …"
    r"postponed|deferred|rescheduled|pushed\s+(?:[\w'’]+\s+){0,3}?(?:back|forward)|brought\s+(?:[\w'’]+\s+){0,3}?forward|"
    r"(?:i'm|i’m|i\s+am|we're|we’re|we\s+are)\s+now\b|(?:increased|decreased|rose|risen|raised|lowered|"
    r"dropped|fell|fallen)\s+to|as\s+of|got\s+(?:it|that|this)\s+wrong|"
    # "I've gone vegan", "we became a two-car household" (not "I've gone to the gym")
    r"(?:i've|i’ve|i\s+have|we've|we’ve|we\s+have|i|we)\s+(?:gone|become|became|turned)\s+(?!to\b|into\b|through\b|over\b|back\b|"
    r"out\b|away\b|home\b|off\b|on\b|up\b|down\b)|"
    # "I'm on nights now.", "its M20 2LF now": a state said as holding now, at its clause's end
    r"now(?=\s*(?:[.!,;()]|[—–-]\s|$)))\b|\bnew\s+[a-z]+(?:\s+[a-z]+)?\s*(?::|\s(?:is|are)\b|,\s*(?:(?:number|no\.?)\s+)?(?=[\w.@+-]*\d))"
    # "Navigo monthly pass — that's my public transport pass now"
    r"|\b(?:that's|that’s|that\s+is|it's|it’s|it\s+is|which\s+is)\s+(?:my|our)\s+(?:[\w'’-]+\s+){0,4}?"
    r"(?:now|these\s+days|nowadays)\b",
    re.I,
)
#: a statement that tells of a change (for resolution: where the replaced attribute is named)
CHANGE_CUE = _CHANGE
_LIST_SPLIT = re.compile(r"\s*(?:,?\s+and\s+likewise\s+|,?\s+and\s+(?:also\s+)?equally\s+|,?\s+and\s+(?:also\s+|then\s+)?(?:forget|delete|remove|erase|wipe|drop|scrap|bin|ditch|purge|"
                         r"lose)\s+|,\s*(?:and\s+|or\s+|as\s+well\s+as\s+)?|;\s*|\s+and\s+also\s+|\s+and\s+|\s+or\s+|\s+[+&]\s+|"
                         r"\s+as\s+well\s+as\s+|\s+plus\s+|\s+along\s+with\s+|\s+together\s+with\s+|\s+nor\s+|\s+n\s+)\s*", re.I)
#: what a further item of a list opens with ("…, my phone", "…, and the PIN", "…, 2093")
_LIST_ITEM = re.compile(
    r"^(?:(?:and|or|plus|as\s+well\s+as)\s+)?(?:my|the|our|his|her|their|your|a|an|both|also|"
    r"where|when|who|what|which|how|that|those|these|this|(?!(?:it|that|everything|nothing|something|anything|there|here|what|who|he|she|let)(?:'s|’s))"
    r"[a-z]+(?:'s|’s)\b|(?-i:(?!I\b)[A-Z0-9]))", re.I)  # a capital starts a name, but "I'll …" a clause
_PART_START = re.compile(r"^(?:my|the|our|where|when|who|what|whatever|which|how|that|his|her|their|mine|both)\b", re.I)
#: a list item that is a fact about the user: "that I'm left-handed, and that I'm colour-blind"
_SELF_PART = re.compile(r"^(?:that\s+)?i(?:'m|’m|\s+am)\b", re.I)


def _first_phrase(text: str) -> str:
    """The object phrase up to a comma that starts another clause: "the office address,
    send everything home" names the office address; "my email, my phone and the PIN" is a
    list and stays whole."""
    parts = re.split(r", (?![^()]*\))", text)  # (not inside brackets: "my allergies (peanuts, shellfish)")
    if _is_bare_list([p for q in parts for p in re.split(r"\s+(?:and|or)\s+", q)]):
        return text  # "landlord's name, rent amount, lease end date"
    kept = [parts[0]]
    for part in parts[1:]:
        if not _LIST_ITEM.match(part) or _COMMENT_CLAUSE.match(part):
            break  # (", those are my security answers": a comment on the list, not an item)
        kept.append(part)
    return ", ".join(kept)


#: a clause about what came before it: "those are literally my security answers", "that's private"
_COMMENT_CLAUSE = re.compile(r"(?:those|these|that|they|which|it)\s+(?:are|were|is|was|have|had)\b|"
                             r"(?:that's|that’s|they're|they’re|it's|it’s)\b|(?:which|that|who)\s+(?:i|you|we)\b", re.I)


def _is_bare_list(parts: list[str]) -> bool:
    """Three or more short noun phrases without determiners ("Wifi password, alarm code,
    spare key location"): a list, though its items do not start with "my" or "the"."""
    return len(parts) >= 3 and all(
        1 <= len(p.split()) <= 4 and re.search(r"[A-Za-z]{2}", p) and not re.search(r"[.?!;:]", p)
        and not _NOT_A_THING.search(p) and not _NOT_AN_ITEM.search(p) for p in parts)


#: words no item of a list of things holds: a pronoun, a verb of the request, a discourse word
_NOT_AN_ITEM = re.compile(
    r"\b(?:it|that|this|them|those|these|" + _REMOVE_VERBS + r"|keep|store|remember|please|pls|thanks|"
    r"honestly|tho|though|ok|okay|yeah|so|too|also|lol)\b|\w+ly\b", re.I)


def clean_target(raw: str) -> str:
    """Strip the request's framing from the object phrase, keep what names the target."""
    # "clear that out", "throw it away": the particle is the verb's, the object a pronoun
    raw = re.sub(r"^(\s*(?:it|that|this|them|those|these))\s+(?:out|away|off|any\s*more|either|too|as\s+well|for\s+good|"
                 r"completely|entirely|altogether)\b", r"\1", raw, flags=re.I)
    text = _first_phrase(raw.strip(" \t\"'“”.,!?;:"))
    changed = True
    while changed:
        changed = False
        for pattern in _LEAD_STRIP:
            new = re.sub(r"^" + pattern, "", text, flags=re.I)
            if new != text and new.strip():
                text, changed = new.strip(), True
        for pattern in _TAIL_STRIP:
            new = re.sub(pattern, "", text, flags=re.I)
            if new != text and new.strip():
                text, changed = new.strip(" ,.;:!?"), True
    return text.strip(" \t\"'“”.,!?;:")


def split_targets(target: str) -> list[str]:
    """"my home address and my phone number" -> two targets; "rock and roll" stays one."""
    # a list in brackets is one item's examples: "my allergies (peanuts, shellfish)"
    bracketed = {f"\0{n}\0": m.group(0) for n, m in enumerate(re.finditer(r"\([^()]*\)", target))}
    for key, text in bracketed.items():
        target = target.replace(text, key, 1)
    return [_unbracketed(p, bracketed) for p in _split_list(target)]


def _unbracketed(text: str, bracketed: dict[str, str]) -> str:
    for key, original in bracketed.items():
        text = text.replace(key, original)
    return text


#: an item that shares the first item's possessive: "weight" in "my height, weight and shoe size"
_BARE_NOUN = re.compile(r"(?!(?:my|our|his|her|their|your|its|the|a|an|this|that|these|those)\b)[a-z][a-z-]+(?:\s+[a-z][a-z-]+)?")
_OWNER = re.compile(r"^(my|our|his|her|their)\s+[a-z]", re.I)


def _split_list(target: str) -> list[str]:
    """``split_targets`` without brackets."""
    # ("my sort code + account number pls, and the last 4 of my card": the please is no item's)
    target = re.sub(r"\s+(?:please|pls|plz)\b(?=\s*,)", "", target, flags=re.I)
    raw = [p.strip(" ,.;:") for p in _LIST_SPLIT.split(target)]
    owner = _OWNER.match(raw[0])
    bare = [bool(_BARE_NOUN.fullmatch(p) and not _NOT_AN_ITEM.search(p) and not _NOT_A_THING.search(p)) for p in raw[1:]]
    if owner and len(raw) >= 2 and all(bare):
        # "my height, weight and shoe size", "my height n weight": the possessive said once
        return [raw[0], *(f"{owner.group(1)} {p}" for p in raw[1:])]
    if owner and len(raw) >= 3 and any(bare) and all(b or _PART_START.match(p) for b, p in zip(bare, raw[1:])):
        # "my sort code + account number, and the last 4 of my card": a bare noun shares the
        # first item's possessive, the others have their own
        return [raw[0], *(f"{owner.group(1)} {p}" if b else p for b, p in zip(bare, raw[1:]))]
    raw_parts = _joined_within_items(raw, [m.group(0) for m in _LIST_SPLIT.finditer(target)])
    parts = list(dict.fromkeys(raw_parts))
    if len(parts) >= 2 and any(_SUBJECT_AND_VERB.match(p) for p in parts[1:]):
        # "that email i gave you for the xbox, my brother goes thru my phone": the words after
        # the comma say why, they are no second thing
        return [target.split(",")[0].strip()] if "," in target else [target]
    if len(parts) == 2 and (_APPOSITIVE_ONE.fullmatch(parts[1]) or _APPOSITIVE_RELATIVE.fullmatch(parts[1])) and not (
            _APPOSITIVE_ONE.fullmatch(parts[0])):
        # "that second account number I gave you, the savings one", "Jess's new tablets, the
        # ones the GP put her on for her mood": one thing, said twice
        return [target]
    if len(parts) < 2:
        # "Whitfield and forget Whitfield": one thing named twice
        return parts if len(raw_parts) > 1 and _NAMED.match(parts[0]) else [target]
    if all(_PART_START.match(p) or _SELF_PART.match(p) for p in parts[1:]) and (
        _PART_START.match(parts[0]) or _SELF_PART.match(parts[0]) or len(parts[0].split()) >= 3
    ):
        # "service I pay to stream from, my travel time and my car cover": a described
        # first item needs no "my" when the others have one ("mum and my dad" stays whole)
        return [re.sub(r"^both\s+", "", p, flags=re.I) for p in parts]
    if all(_NAMED.match(p) for p in parts):  # "EDF and Bulb", "Dr Thorsby and Smile Studio"
        return parts
    if "," in target and _is_bare_list(parts):
        return parts
    return [target]


_APPOSITIVE_ONE = re.compile(r"(?:the|that)\s+(?:[\w'’-]+\s+){1,2}one", re.I)
_APPOSITIVE_RELATIVE = re.compile(r"(?:the|that|those)\s+ones?\s+(?:that|which|who|i|you|we|he|she|they|the|my|on|from|"
                                  r"in|at|with)\b.*", re.I)


#: a clause, not a list item: a subject and a finite verb ("my brother goes thru my phone")
_SUBJECT_AND_VERB = re.compile(
    r"^(?:my|our|his|her|their|the|he|she|they|it|i)\s+(?:[\w'’-]+\s+)?(?:is|was|are|were|has|had|does|did|goes|reads|"
    r"sees|checks|uses|knows|keeps|looks|will|can|could|would|might|should|lives|works|says|thinks|gets|got|went|"
    r"wants|needs|finds)\b", re.I)


def _joined_within_items(parts: list[str], separators: list[str]) -> list[str]:
    """Parts split at a plain "and"/"or" that starts no item of its own joined back to the one
    before: "where my mother comes from and the make and model of my car" is two items, not
    "… the make" and "model of my car"."""
    out: list[str] = []
    for i, part in enumerate(parts):
        separator = separators[i - 1] if i else ""
        if out and part and re.fullmatch(r"\s+(?:and|or)\s+", separator, re.I) and not (
                _PART_START.match(part) or _SELF_PART.match(part) or _NAMED.match(part)
                or not _names_something(part)):  # ("… and all that": no item, and no list)
            out[-1] = f"{out[-1]}{separator}{part}"
        elif part:
            out.append(part)
    return out


#: a name or a code: every word capitalised ("Smile Studio", "Dr Thorsby") or holding a digit
_NAMED = re.compile(r"^(?:(?:[A-Z][\w'’.&-]*|[\w-]*\d[\w-]*)(?:\s+|$))+$")


_PRONOUN_ONLY = re.compile(
    r"^(?:(?:the\s+)?(?:whole\s+)?lot|'?em|(?:both|(?:all|those|these|the)\s+(?:two|three|four))(?:\s+of\s+(?:them|those|these|'?em))?)$|"
    r"^(?:(?:any|the|a|all|every|that|this|those|these)\s+)?(?:such\s+)?(?:record|note|mention|trace|"
    r"memory|detail|info|information|thing|part|bit|piece|conclusion|inference|assumption|guess|"
    r"deduction|one)?s?\s*(?:of\s+)?(?:it|that|this|them|those|these)?"
    r"(?:\s+(?:out|away|off))?(?:\s+about\s+me)?(?:\s+(?:both|all|too|as\s+well|please|for\s+me|entirely|completely|altogether))?$",
    re.I,
)


def _names_something(target: str) -> bool:
    return not _PRONOUN_ONLY.match(target.strip())


def _clauses(text: str) -> list[str]:
    return split_clauses(text)


_ANTECEDENT_CUE = re.compile(
    r"\b(?:sharing|shared|share|telling\s+you|told\s+you|tell\s+you|mentioning|mentioned|(?:i\s+was\s+)?saying|"
    # "I confided rather a lot in you about a romantic attachment"
    r"confided\s+(?:(?:quite|rather|so|too)\s+)?(?:a\s+lot\s+|much\s+|everything\s+)?(?:in\s+you|to\s+you)|"
    r"t(?:ell|old)\s+(?:anyone|anybody|people|others|a\s+soul)\s+about|"
    r"(?:went|going)\s+on\s+about|"
    r"mention|giving\s+you|gave\s+you|put\w*\s+together|work\w*\s+out|figur\w*\s+out|piec\w*\s+together|"
    r"(?:have|'ve)\s+(?:typed|written|put|entered|sent|posted|pasted)|typed|wrote|entered|pasted|"
    r"inferred|concluded|assumed|deduced|you\s+know|you\s+have|you\s+had|you\s+stored|you\s+kept|"
    # "If you've held on to my dentist appointment, let go of that"; "I'm not comfortable with
    # you retaining the chat we had on September 21, so let it all go"
    r"you(?:'ve|’ve|\s+have)?\s+(?:already\s+)?(?:been\s+)?(?:stor(?:ed|ing)|kept|keeping|sav(?:ed|ing)|held\s+on\s+to|"
    r"holding\s+on\s+to|guessed|noted|record(?:ed|ing)|retain(?:ed|ing)|figured|reckoned|gathered)|with\s+you\s+(?:retaining|keeping|"
    r"storing|holding\s+on\s+to|having))\s+"
    r"(?:(?:about|regarding|on|that)\s+)?(?P<np>.+?)(?:\s+from\s+(?:what|everything|the\s+things)\s+i\b.*)?$",
    re.I,
)
_OFF_LIMITS = re.compile(
    r"(?P<np>\b(?:my|our)\b.+?)\s+(?:is|are)\s+(?:off[- ]limits|private|none\s+of\s+your\s+business|"
    r"not\s+something|personal|confidential|sensitive|secret)"
    # "Finance reminded me that the Kestrel budget figure is confidential"
    r"|(?P<secret>\bthe\s+[^,;.!?]+?)\s+(?:is|are)\s+(?:confidential|sensitive|secret|private|off[- ]limits)\b"
    # "What I told you when we talked about my cover letter was more than I should have shared"
    r"|(?P<said>\bwhat\s+i\s+(?:told\s+you|said|shared|mentioned|wrote)\b.+?)\s+(?:was|is)\s+(?:more\s+than\s+i\s+"
    r"should\s+have\s+(?:shared|said|told\s+you)|too\s+much|too\s+personal|oversharing|private|none\s+of\s+your)"
    # "lamp's here so you don't need its tracking number anymore, forget it"
    r"|\b(?:don't|dont|don’t|do\s+not|won't|wont|no\s+longer)\s+need\s+(?:to\s+(?:keep|know|remember|have)\s+)?"
    r"(?P<unneeded>(?:my|our|the|his|her|its|their)\s+[^,;.!?]+?)\s+(?:any\s*more|any\s+longer)\b"
    # "You don't need my SSN. Delete it."
    r"|\byou\s+(?:don't|dont|don’t|do\s+not)\s+need\s+(?P<unneeded2>(?:my|our|his|her|their)\s+[^,;.!?]+?)\s*(?=[.!?;]|$)"
    # "there is no need to hold Mr Reid's details any longer. Kindly delete them."
    r"|\bno\s+need\s+(?:for\s+you\s+)?to\s+(?:keep|hold|store|remember|have)\s+(?:on\s+to\s+|onto\s+)?"
    r"(?P<noneed>(?:my|our|the|his|her|its|their|[A-Z][\w.]*(?:\s+[A-Z][\w]*)?(?:'s|’s))\s*[^,;.!?]+?)\s+"
    r"(?:any\s*more|any\s+longer)\b"
    # "is not safe that you keep the alarm code. Please remove only this"
    r"|\b(?:not\s+safe|unsafe|not\s+a\s+good\s+idea|not\s+comfortable|risky)\s+(?:that|for|if)\s+you\s+(?:keep|have|store|hold)\s+"
    r"(?P<unsafe>(?:my|our|the|his|her|its|their)\s+[^,;.!?]+)"
    # "I've had to cancel the 12 March test, that date's no good anymore, so please forget it"
    r"|\b(?:cancel(?:led|ed)?|called\s+off)\s+(?P<cancelled>(?:the|my|our)\s+[^,;.!?]+?)(?=\s*[,;.!?]|\s+(?:so|and|because)\b)"
    # "The locksmith said I shouldn't keep the garage code on my phone. Can you get rid of it?"
    r"|\b(?:should(?:n't|n’t|nt|nae|\s+not|\s+never)|must(?:n't|n’t|\s+not|\s+never)|never\s+to)\s+(?:keep|have|store|save|"
    r"hold\s+on\s+to|write\s+down|put)\s+(?P<shouldnt>(?:my|our|the|his|her|their|that|this|(?-i:[A-Z][a-z]+)(?:'s|’s))\s+[^,;.!?]+?)"
    r"(?=\s+(?:anywhere|on|in|online|written|digital|at\s+all|saved|stored)\b|\s*[,;.!?]|\s*$)"
    # "Return flight's cancelled. … Delete it."; "the mammogram got called off"
    r"|^\W*(?P<called_off>(?:(?:the|my|our)\s+)?(?!(?:i|it|that|this|he|she|they|we|you|there|what|everything)\b)"
    r"[a-z][\w'’-]*(?:\s+[a-z][\w'’-]*){0,2}?)(?:'s|’s|\s+(?:is|are|was|were|has\s+been|have\s+been|got))\s+"
    r"(?:been\s+)?(?:cancell?ed|canceled|called\s+off|scrapped)\b"
    # "I'm not comfortable with the alarm code being stored anywhere. Please delete it."
    r"|\b(?:not\s+comfortable|uncomfortable|not\s+happy|don't\s+like|do\s+not\s+like)\s+(?:with\s+)?"
    r"(?P<uneasy>(?:my|our|the|his|her|its|their)\s+[^,;.!?]+?)\s+being\s+(?:stored|kept|saved|held|on\s+file)\b"
    # "the silver Civic is gone so forget it", "the Harlow one isn't relevant anymore, please
    # remove it": a thing the user says is over
    r"|(?P<over>\b(?:the|my|our)\s+[^,;.!?]+?)(?:\s+(?:is|are)|'s|’s)\s+(?:(?:all\s+)?gone|over|history|out\s+of\s+date|outdated|dead|"
    r"irrelevant|no\s+longer\s+(?:relevant|valid|current|true|a\s+thing)|not\s+(?:relevant|valid|current|true)\s+any\s*more)\b"
    r"|(?P<over2>\b(?:the|my|our)\s+[^,;.!?]+?)\s+(?:isn't|isnt|isn’t|aren't|arent|aren’t)\s+(?:relevant|valid|current|true|a\s+thing)"
    r"\s+any\s*(?:more|longer)\b"
    # "I'm no longer on sertraline, please take that off"
    r"|\bi(?:'m|’m|\s+am|m)\s+no\s+longer\s+on\s+(?P<stopped>[^,;.!?]+?)(?=\s*[,;.!?]|\s*$|\s+(?:so|and)\b)"
    r"|\bi(?:'m|’m|\s+am|m)\s+not\s+on\s+(?P<stopped2>[^,;.!?]+?)\s+any\s*(?:more|longer)\b",
    re.I,
)


#: a speech object that names what was said ("… about why I'm short a year", "…, the figure
#: on my card and the bit about Tunde"): its items are the target, not the whole window
_NAMES_ITEMS = re.compile(
    r"\b(?:told\s+you|said|mentioned|shared|wrote)\b[^,.;]*?\babout\s+(?!it\b|that\b|this\b)"
    # ("since about 10", "about an hour ago", "about two weeks back" say when, not what)
    r"(?!\d|an?\s+(?:hour|week|day|month|fortnight|year)|(?:one|two|three|four|five|six|ten|twenty)\b|half\s+an?\b)\w"
    r"|\b(?:told\s+you|said|mentioned|shared)\b[^,]*,\s+(?:the|my)\s+"
    r"(?!(?:morning|night|evening|afternoon|day|weekend|week|time)\b)\w+", re.I)
#: a clause that only names something ("That second tablet on my own list, the one for the
#: prostate"): a determiner, then no finite verb of its own
_BARE_REFERENT = re.compile(
    r"^(?:that|this|those|these|the|my)\s+(?:(?!\b(?:is|was|are|were|has|have|had|do|does|did|will|would|can|"
    r"could|should|i|you|we|he|she|they)\b)[^.?!;])+$", re.I)
_TOLD = re.compile(r"\b(?:told\s+you|said|wrote|typed|mentioned|shared|messaged)\b", re.I)
#: "any of the health stuff", "the job-hunt stuff except …", "all the money side of things"
#: a count with nothing named after it: "both", "all three of them", "those two, please"
_COUNT_PRONOUN = re.compile(r"^\s*(?:both|(?:all|those|these|the)\s+(?:two|three|four))\b(?:\s+of\s+(?:them|those|these|'?em))?"
                            r"(?:\s+(?:please|pls|plz|thanks|thx|too|now|out|away|for\s+good))*"
                            r"(?:\s+(?:from|out\s+of|frm)\s+(?:(?:your|ur|the|my)\s+)?(?:memory|memories|records?|notes?))?"
                            r"\s*(?:[,.;:!?—–-]|$)", re.I)
#: an object that counts what it names: "both of my kids' birthdays", "the two addresses", "all three codes"
_COUNTED = re.compile(r"^(?:both\b|(?:the|those|these|all|my)\s+(?:two|three|four)\s+\w)", re.I)
#: "the following (items I shared) from memory: …": the list after the colon is the object
_THE_FOLLOWING = re.compile(r"^\s*the\s+following\b[^:]*:\s*(?P<items>\S.*)$", re.I)
_ENUMERATOR = re.compile(r"(?:(?<=^)|(?<=\s))(?:\(\s*(?:\d{1,2}|[a-h])\s*\)|(?:\d{1,2}|[a-h])[.)])\s+")
_QUANTIFIED_AREA = re.compile(
    r"^(?:any|all|every\s+one)\s+(?:of\s+)?(?:the|my|our)\s+(?P<desc>[\w-]+(?:\s+[\w-]+)?)\s+"
    r"(?:details|info|information|views|opinions|data|records|history|matters|affairs|stuff|things|bits)\b", re.I)
_STUFF = re.compile(r"^(?:(?:any|all|everything)\s+(?:of\s+)?)?(?:the|my|that|this)?\s*(?P<desc>[\w-]+(?:\s+[\w-]+)?)\s+"
                    r"(?:stuff|things|side(?:\s+of\s+things)?|business|situation|bits|saga|drama|palaver|"
                    r"carry-on|rigmarole|malarkey|mess|nonsense)\b", re.I)


#: a bracket that keeps something out of the item it stands in: "(NOT the triptan, keep that one)"
_BRACKETED_EXCEPTION = re.compile(r"\s*\(\s*(?:but\s+)?(?:not|except(?:\s+for)?)\s+[^)]*\)", re.I)
#: an area named by what it relates to: "everything legal related", "anything money-related"
_RELATED_AREA = re.compile(r"(?:everything|anything|all)\s+(?:[\w'’]+\s+){1,2}?(?:related|-related)\b|"
                           r"(?:everything|anything|all)\s+[\w'’]+-related\b", re.I)
#: what was said, with nothing named: "(I wrote) you many things", "(I said) a lot", "loads of stuff"
_SAID_NOTHING_NAMED = re.compile(r"(?:(?:to\s+)?(?:you|u)\s+)?(?:(?:so\s+|too\s+)?many|a\s+lot\s+of|lots\s+of|loads\s+of|"
                                 r"all\s+sorts\s+of|some|a\s+few|a\s+bunch\s+of)?\s*(?:things?|stuff|messages?|rubbish|"
                                 r"nonsense)|(?:(?:to\s+)?(?:you|u)\s+)?(?:a\s*lot|alot|loads|too\s+much)", re.I)
#: an object that is only the telling: "(forget) I ever told you", "that I mentioned it"
_ONLY_THE_TELLING = re.compile(r"(?:that\s+)?(?:i|i've|i’ve|i\s+have)\s+(?:ever\s+|even\s+|once\s+|just\s+)?"
                               r"(?:told|said|mentioned|shared|wrote|typed|brought\s+(?:it|that|this)\s+up)"
                               r"(?:\s+(?:you|u|to\s+you))?(?:\s+(?:it|that|this|them|(?:about|any\s+of)\s+(?:it|that|this|them)))?",
                               re.I)


def _antecedent(clause: str) -> str | None:
    """The thing a clause says was shared / is private / is no longer valid, for a later
    "delete it"."""
    m = _OFF_LIMITS.search(clause)
    if m:
        return (m.group("np") or m.group("said") or m.group("unneeded") or m.group("unneeded2") or m.group("uneasy")
                or m.group("secret") or m.group("over") or m.group("over2") or m.group("stopped") or m.group("stopped2")
                or m.group("unsafe") or m.group("cancelled") or m.group("noneed") or m.group("called_off")
                or m.group("shouldnt")).strip()
    m = _OLD_SUBJECT.match(clause)
    if m:
        return m.group("np")
    m = _THING_SUBJECT.match(clause)
    if m:
        return m.group("np")
    m = _SAID_LAST.match(clause)
    if m and re.match(r"(?:the|my|our|his|her|their|that|this|those|these)\s+\w", m.group("thing"), re.I) and _names_something(
            clean_target(m.group("thing"))):
        return m.group("thing")  # "The health stuff I've told you.": the thing before the speech verb
    m = _ANTECEDENT_CUE.search(clause)
    if m:
        # "The number from my passport and the tax number, the ones I gave you for the
        # landlord form": the speech verb is inside a clause about the things before it
        relative = re.match(r"^(?P<head>.+?),?\s+(?:the\s+ones?|which|that)\s+(?:i|i've|i’ve|i\s+have)\s*$",
                            clause[: m.start()], re.I)
        if relative and _phrase_has_thing(relative.group("head")):
            return relative.group("head").strip(" ,.;:!?—–-")
        np = re.sub(r"^(?:about\s+|that\s+)", "", m.group("np").strip(), flags=re.I)
        if (re.search(r"\b(?:anything|everything|whatever|all)(?:\s+(?:i|i've|i’ve|i\s+have))?\s*$", clause[: m.start()], re.I)
                and re.search(r"\b(?:about|on|regarding|concerning)\s*$", clause[m.start(): m.start("np")], re.I)):
            # "Anything you have about my mental health history — purge it": all of an area
            np = f"everything about {np}"
        # "The number I gave you for the wages": the generic thing before the speech verb is
        # what is meant, what follows says what it was for (not a thing of its own)
        giver = re.sub(r"\s*\b(?:that|which)?\s*(?:i|i've|i’ve|i\s+have)\s*$", "", clause[: m.start()],
                       flags=re.I).strip(" ,.;:!?—–-")
        giver = re.split(r",\s*(?:(?:so|and|but)\s+)?", giver)[-1].strip()
        if _GENERIC_HEAD.fullmatch(giver) and re.match(r"(?:for|from|about|on|of)\b", np, re.I):
            return f"{giver} {np}".strip(" ,.;:!?")
        # "that tablet I told you I take in the mornings": the thing, and what the user says of it
        thing = re.search(r"\b(?:the|that|this|those|these|my)\s+(?:[\w'’-]+\s+){0,2}?[\w'’-]+$", giver, re.I)
        if thing and re.match(r"(?:i|we)\s+(?!(?:was|am|were|had|have|did|do|would|will|could|can|should|think|thought|"
                              r"guess|mean|said|told|just|really)\b)[a-z]+\b", np, re.I) and _names_something(clean_target(thing.group(0))):
            return f"{thing.group(0)} {np}".strip(" ,.;:!?")
        # "I shared a lot about the custody hearing. Please wipe every bit of it.": all of it
        np = re.sub(r"^(?:(?:quite\s+|rather\s+)?a\s+lot|lots|loads|so\s+much|too\s+much|a\s+bunch|plenty)\s+(?:(?:in|to)\s+you\s+)?"
                    r"(?:about|regarding|on)\s+",
                    "everything about ", np, flags=re.I)
        # "about the £1,200 and i feel weird that even you know": the thing, not the next clause
        np = re.split(r",?\s+(?:and|but|so)\s+(?:now\s+|then\s+|still\s+)?(?=(?:i|i'm|i’m|i've|you|we|it)\b)", np,
                      flags=re.I)[0]
        # "… I told you last week, the figure on my card and the bit about Tunde": when it
        # was said, then the things said
        if re.fullmatch(r"(?:about|of|on|regarding)\W*", np.strip(), re.I):
            # "the first dentist I told you about": the thing is before the speech verb
            head = re.sub(r"\s*\b(?:that|which)?\s*(?:i|i've|i’ve|i\s+have|we)\s*$", "", clause[: m.start()],
                          flags=re.I).strip(" ,.;:!?—–-")
            head = re.split(r",\s*(?:(?:so|and|but)\s+)?|:\s+", head)[-1].strip()
            # ("I sold that second bike": the thing, not the sentence about it)
            thing = re.search(r"\b(?:the|that|this|those|these|my|our)\s+(?:[\w'’-]+\s+){0,3}?[\w'’-]+$", head, re.I)
            head = thing.group(0) if thing else head
            if head and _names_something(clean_target(head)):
                return head
        when_first = re.match(r"^(?P<when>[^,]+),\s+(?P<rest>.+)$", np)
        if when_first and _ONLY_WHEN.fullmatch(when_first.group("when").strip()):
            np = when_first.group("rest")
        if _ONLY_WHEN.fullmatch(np.strip(" ,.;:!?")):
            # "the Lånekassen figure I gave you last week": the thing comes before the
            # speech verb, what follows it only says when
            head = re.sub(r"\s*\b(?:that|which)?\s*(?:i|i've|i’ve|i\s+have|we)\s*$", "", clause[: m.start()],
                          flags=re.I).strip(" ,.;:!?—–-")
            # "I'm on 52k now, so whatever salary figure you had before": the last clause's
            head = re.split(r",\s*(?:(?:so|and|but)\s+)?", head)[-1].strip()
            if re.fullmatch(r"(?:.*\W)?(?:everything|anything|all|whatever|what|all\s+of\s+what|stuff)", head, re.I):
                # "Everything I told you yesterday": what was said then (a window), not a thing
                return clause.strip(" ,.;:!?—–-")
            if head:
                return head
        return np.strip(" ,.;:!?") or None
    return None


#: a thing of the user's named in passing: "my PPS number" of "I should never put my PPS
#: number in any chat" (one to three words, up to a function word or a verb)
_ENDS_A_THING = (r"and|or|but|in|on|at|to|for|with|from|is|was|are|were|has|have|had|will|would|works?|said|says|"
                  r"told|tells|gave|gives|asked|got|went|thinks?|wants?|knows?|who|which|that")
_MY_THING_SAID = re.compile(r"\b(?:my|our)\s+(?:(?!(?:" + _ENDS_A_THING + r")\b)[\w'’-]+\s*){1,3}", re.I)
#: a thing named in passing with any determiner: "the key safe number", "that second PNR" (up
#: to a pronoun, a modal or a time word too: "the cleaners should", "that second bike last week")
_THING_SAID = re.compile(
    r"\b(?:the|his|her|their|that|this)\s+(?:(?!(?:" + _ENDS_A_THING + r"|i|you|we|he|she|they|it|anywhere|any|so|because|"
    r"as|now|again|too|written|digital|should|could|can|must|might|may|shall|do|does|did|need|needs|last|next|"
    r"yesterday|today|tonight|tomorrow|ago|week|weekend|month|year)\b)[\w'’-]+\s*){1,3}",
    re.I)


_MODAL_NEXT = re.compile(r"\s*(?:should|could|can|must|might|may|shall|will|would|need|needs|do|does|did)\b", re.I)


def _names_a_person(text: str) -> bool:
    """A capitalised word that is not a sentence's opening function word ("Zsofi asked to be
    taken off" names her; "Ok so the bad part" names no one)."""
    for m in re.finditer(r"\b[A-Z][a-z]+\b", text):
        opening = m.start() == 0 or re.search(r"[.!?]\s+$", text[: m.start()]) is not None
        if not (opening and (m.group(0).lower() in STOPWORDS or m.group(0).lower() in _OPENERS)):
            return True
    return False


_OPENERS = frozenset("ok okay so please can could would and but also well hey hi yeah oh anyway just actually "
                     "now right listen look sorry thanks".split())
#: a clause that ends in the speech verb: "The health stuff I've told you."
_SAID_LAST = re.compile(r"^\W*(?P<thing>.+?)\s+(?:that\s+|which\s+)?(?:i|i've|i’ve|i\s+have)\s+(?:told\s+you|said|mentioned|"
                        r"shared|given\s+you|gave\s+you|put\s+in\s+here|"
                        # "that girl from chem i kept talking to u about, shes dating …"
                        r"(?:kept\s+|been\s+)?talk(?:ing|ed)\s+(?:to\s+(?:you|u)\s+)?about)(?:\W*$|,\s)", re.I)
#: a thing named only by a generic noun: "the number", "that long figure", "my case number"
_GENERIC_HEAD = re.compile(
    r"(?:the|that|this|my|our)\s+(?:[\w'’-]+\s+){0,2}?(?:number|figure|amount|sum|total|name|code|date|address|"
    r"detail|id|pin)", re.I)
#: a demonstrative with a generic noun: "that number", "this detail", "those ones"
_DEMONSTRATIVE_GENERIC = re.compile(
    r"^\s*(?:that|this|those|these)\s+(?:(?:exact|specific|particular|whole)\s+)?(?:number|figure|amount|detail|"
    r"info|information|one|bit|part|date|address|code|name|thing|fact)s?\b(?=\s*(?:$|[,.;:!?]|from\b|in\b|out\b|off\b|"
    r"for\s+good|please\b|too\b|as\s+well|completely|entirely))", re.I)
#: a demonstrative with a noun: "that hotel", "this booking"
_DEMONSTRATIVE_NOUN = re.compile(r"^\s*(?:that|this)\s+(?P<noun>[a-z][\w-]{2,})\b", re.I)
#: a conversation as the thing to forget ("our chat", "that conversation", "the messages")
_CONVERSATION_NAMED = re.compile(r"\b(?:chats?|conversations?|talks?|messages|session|exchange)\b", re.I)
#: … named by an occasion rather than a date
_OCCASION = re.compile(
    r"\b(?:the\s+(?:night|day|evening|morning|weekend)\s+of|over\s+(?:christmas|easter|new\s+year|the\s+holidays)|"
    r"(?:at|after|before|during)\s+(?:the|my|our|that)\s+\w+|from\s+the\s+night|when\s+i\s+was)\b", re.I)
#: a conclusion named by a pronoun: "that conclusion", "that assumption", "the idea", "that label"
_CONCLUSION_NOUN = re.compile(r"\b(?:conclusions?|assumptions?|inferences?|idea|impression|label|takeaway|guess(?:es)?)\b", re.I)
#: a trait the user says they do not have: "doesn't mean I'm depressed", "≠ diabetic", "I'm not
#: conservative", "doesn't make me a heavy drinker"
_DISPUTED = re.compile(
    r"(?:\b(?:doesn't|does\s+not|don't|didn't|does\s*n't)\s+(?:mean|make)\s+(?:that\s+)?(?:i'm|i\s+am|im|me)\s+|≠\s*|"
    r"\bi(?:'m|’m|\s+am)\s+not\s+|"
    # "whatever picture you've built up of me as an anxious person"; "don't read my questions
    # about visas as meaning I'm an immigrant"; "don't remember me as someone with money
    # problems just because I asked about payday loans"
    r"\b(?:picture|image|impression|idea|view)\s+(?:you|u)(?:'ve|’ve|\s+have)?\s+(?:\w+\s+){0,2}?of\s+me\s+as\s+|"
    r"\bas\s+meaning\s+(?:that\s+)?(?:i'm|i\s+am|im)\s+|"
    r"\b(?P<remember>(?:remember|think\s+of|see)\s+me\s+as)\s+(?:someone\s+(?:with|who(?:'s|’s|\s+is)?)\s+)?|"
    # what the user says the assistant made of them: "you seem to think I'm vegetarian", "you
    # have me down as someone with an eating disorder", "you've decided I'm a student"
    r"\b(?:you|u)(?:'ve|’ve|\s+have|ve)?\s+(?:\w+ly\s+)?(?:(?:seem|seemed|appear|might|may|must)\s+(?:to\s+)?)?(?:\w+ly\s+)?"
    # ("u dont need to think im rich just bc …")
    r"(?:(?:don't|dont|don’t|do\s+not)\s+(?:need|have)\s+to\s+)?(?:(?:have\s+)?"
    r"(?:think|thought|decided|concluded|inferred|assumed|guessed|figured|presumed|believe|"
    r"(?:formed|gotten|got|taken|have)\s+the\s+(?:view|idea|impression|opinion)\s+)\s*"
    r"(?:that\s+)?(?:i'm|i\s+am|im|(?P<have>i\s+have|i've|i’ve))|(?:have|had|got)\s+me\s+down\s+as|"
    r"(?:have\s+)?(?:labelled|labeled|filed|pegged|marked|tagged)\s+me\s+(?:as|under)|"
    # "you've been talking to me as if I'm going through a breakup", "you treat me like I'm broke"
    r"(?:been\s+)?(?:talk|treat|speak|respond|writ|address|act)\w*\s+(?:to\s+)?(?:me\s+)?(?:like|as\s+if|as\s+though)\s+"
    r"(?:i'm|i\s+am|im|i\s+was))\s+"
    r"(?:someone\s+(?:with|who(?:'s|’s|\s+is)?)\s+)?)"
    r"(?:a\s+|an\s+)?['‘\"“]?(?P<trait>[a-z][\w' -]{1,40}?)(?=\s*(?:[.,;:!?]|$|\s+(?:and|but|just|because|from|bc|since|"
    r"i\b)))",
    re.I,
)
#: a dash right after a clause: what follows it is about what the clause named
_DASH_AFTER = re.compile(r"\s+[—–-]+\s")


def _dash_follows(text: str, clause: str) -> bool:
    """``clause`` (one of ``text``'s) ends where a dash joins it to the next one."""
    return _DASH_AFTER.match(text, text.find(clause) + len(clause)) is not None


#: a clause before a dash that is no noun phrase, so no antecedent for "it" after the dash: a
#: sentence ("The weather was awful — forget it"), a speaker's own doing ("I was tired"), or
#: an interjection ("Ugh, never mind — forget it")
_NOT_A_THING = re.compile(
    r"^\W*(?:i|i'm|i’m|i've|i’ve|we|you|it's|it’s|that's|that’s|there's|there’s|ugh|oh|ah|hmm|whatever|"
    r"anyway|never\s*mind|ok(?:ay)?|well)\b"
    r"|\b(?:never\s*mind|is|was|are|were|am|been|have|has|had|do|does|did|will|would|can|could|should)\b",
    re.I,
)
#: "Between us, the bakery thing is cash in hand and I'd rather there was no record of it":
#: a "thing" named as the subject of the sentence before the pronoun
_THING_SUBJECT = re.compile(r"^\W*(?:(?:between\s+us|honestly|so|ok(?:ay)?|also|anyway|and)\W+)*"
                            r"(?P<np>(?:the|that|my|this)\s+(?:[\w'’-]+\s+){1,3}?(?:thing|stuff|business|situation|matter))\s+"
                            r"(?:is|was|isn't|wasn't|'s|’s|—|-)", re.I)
#: "the old address is deprecated — don't keep it": an old value as a sentence's subject
_OLD_SUBJECT = re.compile(r"^\W*(?P<np>(?:the|my|our)\s+(?:old|previous|former)\s+[a-z]+(?:\s+[a-z]+)?)\s+"
                          r"(?:is|are|was|were|'s|’s|has|have)\b", re.I)


def _phrase_has_thing(text: str) -> bool:
    """A phrase that names something ("my passport number"), not only a pronoun or a verb."""
    return bool(re.search(r"\b(?:my|the|our|his|her|their)\s+\w", text, re.I)) and _names_something(clean_target(text))


#: a phrase that only says when ("last week", "the other day", "on Sunday evening")
_ONLY_WHEN = re.compile(
    r"(?:(?:the\s+other|last|this|that|yesterday|earlier|on|in|a\s+few|a\s+couple\s+of|\w+)\s+)?"
    r"(?:day|days|week|weeks|month|months|night|evening|morning|afternoon|weekend|time|ago|before|"
    r"monday|tuesday|wednesday|thursday|friday|saturday|sunday|today|yesterday|earlier)"
    r"(?:\s+(?:ago|back|evening|morning|night|afternoon))?",
    re.I,
)


#: what the user said a moment ago: "what I just told you", "the thing I mentioned a minute
#: ago", "the personal detail in my last message", "that just now" — the last thing they said
JUST_SAID = re.compile(
    r"\b(?:just\s+(?:told|said|mentioned|shared|wrote|typed|sent|gave|put|let\s+slip)|just\s+now|"
    r"(?:a\s+)?(?:minute|moment|second|sec|few\s+minutes)\s+ago|"
    r"(?:my\s+)?(?:last|previous|earlier)\s+(?:message|msg|text|reply)|(?:that|what|it)\s+(?:just\s+)?slipped\s+out)\b",
    re.I,
)
#: an object that is everything of some span: "everything since Monday", "the stuff from the
#: past week", "all the messages from …" (with a time in it, a window)
_ALL_OF_A_TIME = re.compile(r"^\W*(?:(?:out|away|off|up)\s+)?(?:(?:all|any)\s+(?:of\s+)?)?(?:everything|anything|whatever|all|"
                            # (plural: "the thing from my nights …, the drug I got wrong" is one thing)
                            r"(?:the|that|those)\s+(?:stuff|lot|things|messages?|bits)|"
                            # "wipe that whole night"
                            r"(?:that|the)\s+(?:whole|entire)\s+(?:night|evening|day|morning|afternoon|weekend|conversation|"
                            r"chat|session))\b", re.I)
#: a span of time named by an event ("after the funeral", "since my accident", "the night of
#: my birthday"): all of it, or what was said in it, is a window
_AFTER_AN_EVENT = re.compile(r"\b(?:after|since|during)\s+(?:the|my|our|that|his|her)\s+\w+|"
                             r"\bthe\s+(?:night|day|evening|morning|afternoon|weekend|(?:mon|tues|wednes|thurs|fri|satur|sun)day)\s+"
                             r"(?:of|after|before|when|(?:i|we|you|my|our|she|he|they)\s+(?!(?:was|were|am|is)\s+(?:going|about)\b))\b", re.I)
#: a moment to read a time phrase against when only whether it names a time matters: late in a
#: day, so that "everything since about 2am" is a time of it
_ANY_DAY = datetime(2000, 1, 1, 23, 59)
#: a time or a conversation pointed back at: "that night", "that conversation", "the same evening"
_THAT_TIME = re.compile(r"\b(?:that|the\s+same)\s+(?:whole\s+|entire\s+)?(?:night|evening|morning|afternoon|day|weekend|conversation|chat|"
                        r"session|talk|exchange)\b", re.I)
#: … unless it says what it is about ("everything about my trip next week" is a topic)
_ABOUT_A_TOPIC = re.compile(r"\b(?:about(?!\s+(?:\d|an?\s+hour|midnight|noon))|regarding|concerning|"
                            r"on\s+(?:my|the|our|his|her)(?!\s+\d))\b", re.I)  # ("since about 2am", "on the 19th": when)
_SPEECH_OBJECT = re.compile(
    r"^(?:(?:all|any|every|each)\s+(?:of\s+)?)?(?:that|this|the|our|those|these|what|everything|"
    r"anything|whatever|all)\b(?:(?!\babout\b).)*\b(?:conversations?|chats?|sessions?|discussions?|"
    r"exchanges?|talks?|said|told|mentioned|shared|wrote|typed|day|evening|morning|afternoon|night)\b",
    re.I,
)


#: cheap screen: a turn with none of these words cannot be a forget request (most turns)
_SCREEN = re.compile(
    r"\b(?:forget|erase|delete|remove|wipe|purge|scrub|drop|discard|clear|unlearn|expunge|strike|"
    r"scrap|scratch|bin|ditch|toss|dump|nix|nuke|junk|shred|trash|lose|cross\s+(?:(?:it|that)\s+)?off|cross\s+(?:it|that)\s+out|stop|rid\s+of|throw\s+(?:away|out)|let\s+go|cross\s+out|take\s+out|replace|"
    r"un-?know|un-?remember|un-?file|memory-?hole|zap|chuck|abandon|take\s+away|"
    r"(?:don't|dont|don’t|not|never|no\s+longer)\s+(?:\w+\s+){0,2}?(?:keep|store|remember|retain|save|"
    r"hold|use|record|track|log|infer|deduce|conclude|assume|guess|speculate|draw|make|presume|derive|"
    r"put|piece|work|figure|connect|link|join)|"
    r"want\s+you|rather\s+you|prefer\s+you|better\s+(?:if\s+|that\s+)?you)",
    re.I,
)


#: A cheap necessary condition for ``_SCREEN`` on lower-cased, whitespace-collapsed text:
#: one of its verbs or fixed phrases, or a negation together with one of the verbs a
#: negation must govern. Literal alternations without IGNORECASE run several times faster
#: than ``_SCREEN``, which then runs only on the turns that pass (about one in six user
#: turns of the generated benchmark); written as a trie (``literal_pattern``), five times
#: faster again than the flat alternation, with the same matches.
_QUICK_WORDS = re.compile(literal_pattern((
    "forget|forgt|foget|frget|forgte|froget|erase|delet|remove|gone.|gone!|wipe|purge|scrub|drop|discard|clear|unlearn|expunge|"
    "strike|stop|unknow|un-know|unremember|un-remember|unfile|un-file|memory-hole|memoryhole|zap|chuck|abandon|take away|gone from|taken out|"
    "scrap|scratch|bin|ditch|toss|dump|nix|nuke|junk|shred|trash|lose|cross off|cross it out|cross that out|rid of|throw away|throw out|let go|letting go|cross out|take out|replace|overwrite|off.|off!|off,|no record|make sure|better you|better if you|better that you|on file|want you|rather you|prefer you|soon you|sooner you|"
    "no longer|rather none|rather it|pretend|act like|act as if|dead to me|nuh |beg yuh|tek |paki|tanggal|burahin|alisin|wag mo|huwag mo|off your|off ur|off whatever|off what|out of your|out of ur|out of whatever|outta|"
    "hang on|hanging on|hang onto|"
    "disregard|dispose|set aside|put aside|withdraw|off the record|never happen|treated as|not be stored|not be kept|"
    "rather u|better u|"
    "let it go|let that go|let them go|let those go|let this go|"
    "need not|needn't|needn’t|obliged|grateful|not something|"
    "hold on|sitting in|sitting there|sitting around|sitting somewhere|no need|need to keep|need to remember|"
    "need to store|want that|want it|want any|want all|want my|want this|want them|two and two|dots|mind terribly|mind not|"
    # the idioms of _IDIOMS below, as literals (a regex with ".{1,80}" here doubled the
    # screen's cost on every turn): "I'd like X removed", "let X go", "X can go", "could you
    # not keep X", "would you mind deleting X", "the old one is out of date"
    "removed|deleted|erased|forgotten|wiped|dropped|cleared|go,|go.|go;|go!|go please|go pls|can go|"
    "you to not|you not have|you not keep|you not store|you not remember|you not hold|you not save|"
    "mind clear|mind delet|mind remov|mind eras|mind forget|mind wip|mind scrap|mind drop|mind ditch|mind bin|"
    "mind purg|mind scrub|mind toss|mind dump|mind discard|mind just|mind please|"
    "no deduction|no inference|no conclusion|no assumption|no guess|no speculation|no theor|any view|a view|"
    "never calculate|never compute|never work out|never figure out|never estimate|"
    "out of date|outdated|obsolete|no use|come up again|n't come up|not come up|nt come up|n't apply|not apply|nt apply|"
    "bother keeping|bother storing|bother remembering|"
    "bother with|one is wrong|ones are wrong|before is wrong|earlier is wrong|ended up|"
    "n't stored|not stored|n't kept|not kept|n't saved|not saved|n't remembered|not remembered|n’t stored|"
    "n't be stored|n't be kept|n't be saved|n't be remembered|n’t be stored|n’t be kept|not be stored|not be kept|"
    "not be saved|not be remembered|"
    "want kept|want stored|want saved|want remembered|like kept|like stored|should stay|n't stay|n’t stay|not stay|neither should|"
    "to be remembered|act like i never|act as if i never|me down as|save me as|mark me as|file me as|label me as|"
    "weren't remembered|wasn't remembered|file that away|file it away"
).split("|")) + "|(?:go|off)$")
_QUICK_NEGATION = re.compile("don|not|never")
_QUICK_GOVERNED = re.compile(
    "keep|store|remember|retain|save|hold|use|record|track|log|infer|deduc|conclu|assum|"
    "guess|speculate|draw|make|presume|derive|together|work out|working out|figure out|figuring out|connect|link|dots"
)


def may_be_request(text: str) -> bool:
    """A cheap necessary condition for a forget request: a removal word, a memory idiom, or a
    negation beside a verb it can govern (most turns fail it, and nothing else is done)."""
    lowered = " ".join(text.lower().split())
    if _QUICK_WORDS.search(lowered):
        return True
    return bool(_QUICK_NEGATION.search(lowered) and _QUICK_GOVERNED.search(lowered))


#: a pattern, what replaces it (text, or a function of the match), and its needles: words of
#: which the pattern cannot match without one (in the lower-cased, whitespace-collapsed text;
#: empty: always tried). Most turns hold none of a rewrite's needles, and a substring test is
#: far cheaper than a case-blind pattern scanning every position.
_Rewrite = tuple[str, str | Callable[[re.Match[str]], str], tuple[str, ...]]
#: a finite verb or a subject pronoun: a clause, not a noun phrase said before its verb
_HAS_VERB = re.compile(r"\b(?:is|was|are|were|am|has|have|had|i|we|he|she|they|you|it's|that's|there's|wiped|deleted|"
                       r"removed|erased|lost)\b", re.I)
#: "would you mind deleting X": the verb of a gerund whose stem is not the verb
_GERUND_STEMS = {"eras": "erase", "delet": "delete", "remov": "remove", "wip": "wipe", "purg": "purge",
                 "scrapp": "scrap", "dropp": "drop", "scrubb": "scrub", "binn": "bin"}

#: a removal verb's past tense -> the verb ("if you erased" asks "erase")
_PRESENT_OF = {"erased": "erase", "deleted": "delete", "removed": "remove", "forgot": "forget", "wiped": "wipe",
               "dropped": "drop", "scrapped": "scrap", "cleared": "clear", "binned": "bin", "ditched": "ditch"}

#: texting spellings read as the words they stand for (only for reading a request)
_TEXTING: list[_Rewrite] = [
    (r"\bu\b", "you", ()), (r"\bur\b", "your", ("ur",)), (r"\b(?:pls|plz|plse|pleez)\b", "please", ("pl",)),
    (r"\bdont\b", "don't", ("dont",)), (r"\bdidnt\b", "didn't", ("didnt",)),
    (r"\bdoesnt\b", "doesn't", ("doesnt",)), (r"\bcant\b", "can't", ("cant",)),
    (r"\bwouldnt\b", "wouldn't", ("wouldnt",)), (r"\bim\b", "i'm", ("im",)), (r"\bive\b", "i've", ("ive",)),
    (r"\bthx\b", "thanks", ("thx",)), (r"\babt\b", "about", ("abt",)), (r"\bwanna\b", "want to", ("wanna",)),
    (r"\bgonna\b", "going to", ("gonna",)), (r"\boutta\b", "out of", ("outta",)),
    (r"\bn\b(?=\s+(?:forget|delete|remove|erase|wipe|scrap|drop|bin))", "and", ()),
    (r"\bid\s+(?=(?:like|love|rather|prefer|appreciate)\b)", "i'd ", ("id",)),
    (r"\byouve\b", "you've", ("youve",)), (r"\bthats\b", "that's", ("thats",)),
    (r"\bshouldnt\b", "shouldn't", ("shouldnt",)), (r"\bshud\b", "should", ("shud",)), (r"\bb4\b", "before", ("b4",)), (r"\bisnt\b", "isn't", ("isnt",)),
    (r"\bconvo(s?)\b", r"conversation\1", ("convo",)),
    # Scots negation and past tense: "I'd rather you didnae hold on to it", "what I've telt you"
    (r"\b(did|could|would|should|does|is|was|has|have|are|were)nae\b", r"\1n't", ("nae",)),
    (r"\bcannae\b", "can't", ("cannae",)), (r"\bdinnae\b", "don't", ("dinnae",)), (r"\btelt\b", "told", ("telt",)),
    # Nigerian Pidgin: "comot them" (take them out), "delete am" (delete it)
    (r"\bcomot\b", "remove", ("comot",)),
    (r"\b(forget|delete|remove|erase|wipe|clear|drop|scrap|bin|comot)\s+am\b", r"\1 it", (" am",)),
    # Jamaican patois: "beg yuh tek dem out" (please take them out), "nuh keep di ole amount"
    # (don't keep the old amount), "mi nuh want yuh fi work out dat" (I don't want you to work that out)
    (r"\bmi\s+nuh\s+want\s+(?:yuh|you|unu)\s+fi\b", "i don't want you to", ("nuh want",)),
    (r"\bmi\s+nuh\s+want\b", "i don't want", ("nuh want",)),
    (r"\bnuh\b", "don't", ("nuh ",)), (r"\bbeg\s+(?:yuh|you)\b", "please", ("beg yuh", "beg you")),
    (r"\btek\s+(dem|it|dat|di\s+\w+)\s+out\b", r"remove \1", ("tek ",)),
    # (needles with the spaces around them: "dat" is in "update", "ole" in "whole")
    (r"\bdem\b", "them", (" dem ", " dem.", " dem,")), (r"\bdat\b", "that", (" dat ", " dat.", " dat,")),
    (r"\bdi\b", "the", (" di ",)), (r"\bole\b", "old", (" ole ",)), (r"\byuh\b", "you", ("yuh",)),
    (r"\bmi\b", "i", (" mi ",)),
    # Taglish: "pakitanggal na lang sa notes mo" (please remove it from your notes), "wag mo na
    # i-keep" (don't keep it any more), "yung sinabi ko sayo" (what I told you)
    (r"\bpaki-?(?:tanggal|bura|delete|alis)\w*\b(?:\s+(?:na\s+lang|na|po|lang))*", "please remove", ("paki",)),
    (r"\b(?:tanggalin|burahin|alisin|i-delete|idelete)\s+mo\b(?:\s+(?:na\s+lang|na|po|lang))*", "please remove",
     ("tanggalin", "burahin", "alisin", "delete mo")),
    (r"\b(?:wag|huwag)\s+mo\s+(?:na\s+)?(?:i-?keep|itago|tandaan)(?:\s+(?:pa|na|po))*\b", "don't keep it",
     ("wag mo", "huwag mo")),
    (r"\b(?:yung|ung|iyong)\s+sinabi\s+ko\s+(?:po\s+)?(?:sa(?:yo|iyo)|sa\s+iyo)\b", "what i told you", ("sinabi ko",)),
    (r"\b(?:yung|ung)\s+lumang\b", "the old", ("lumang",)), (r"\bsa\s+notes\s+mo\b", "from your notes", ("notes mo",)),
    # Spanish and Portuguese asks in English messages: "Please apaga it — the exam, the lab",
    # "bórralo todo", "olvídalo porfa"
    (r"\b(?:apaga|apague|apagar|borra|borrar|elimina|eliminar|esquece|esqueça|esqueca|olvida|olvidar)\b(?:\s+(?:it|that))?"
     r"|\b(?:b[oó]rra|elim[ií]na|olv[ií]da|ap[aá]ga)(?:lo|la|los|las)\b", "delete it",
     ("apag", "borr", "bórr", "elimin", "elimín", "esque", "olvid", "olvíd")),
    (r"\bdelete\s+it\s+tod[oa]s?\b", "delete all of it", ("tod",)),
    # everyday misspellings around a request: "Delet evrything about my dad", "waht i said erlier"
    # (needles are the misspellings themselves, so the many turns that spell the word right skip these)
    (r"\bdelet\b", "delete", ("delet ", "delet.")),
    (r"\b(?:evrything|everyting|evrythin|everythin|evrythng)\b", "everything",
     ("evrything", "everyting", "evrythin", "everythin ", "everythin.", "evrythng")),
    (r"\b(?:waht|wat|wht)\b", "what", ("waht", "wat ", "wht")), (r"\b(?:plese|pleas)\b", "please", ("plese", "pleas ")),
    (r"\b(?:erlier|earlyer|earler)\b", "earlier", ("erlier", "earlyer", "earler")), (r"\bfrm\b", "from", ("frm",)),
    (r"\bcn\b(?=\s+(?:u|you)\b)", "can", ("cn u", "cn you")),
    (r"\b(?:anythng|anythin|anyting)\b", "anything", ("anythng", "anythin ", "anythin.", "anyting")),
    # the request's own verb mistyped: "forgt it plz", "foget my PIN"
    (r"\b(?:forgt|foget|frget|forgte|froget)\b", "forget", ("forgt", "foget", "frget", "forgte", "froget")),
    # "Please you delete the 32.", "Please to delete my wife name" (a learner's "please")
    (r"\bplease\s+(?:you\s+to|you|to)\s+(?=(?:forget|delete|remove|erase|wipe|drop|clear|scrap|bin)\b)", "please ",
     ("please",)),
    # drawn-out letters: "sooo", "pleeease", "pls pls"
    (r"([a-z])\1{2,}", r"\1", ()),
]
#: idioms of removal rewritten as the plain request they make, so one grammar reads them all
_IDIOMS: list[_Rewrite] = [
    # "take that off your notes", "get my salary out of your records", "take that off whatever
    # you keep about me"
    (r"\b(?:let(?:'s|’s|\s+us)\s+)?(?:take|get|keep|leave)\s+((?:(?!\b(?:off|out|put|would|could|can|will)\b)[^.?!;]){1,80}?)\s+(?:off|out\s+of)\s+"
     r"(?:(?:your|the|my)\s+(?:notes?|records?|list|memory|memories|files?|system|books|head)\b|"
     r"(?:whatever|what|everything)\s+(?:you|u)\s+(?:keep|have|hold|store|know)\w*(?:\s+(?:about|on)\s+me)?\b)",
     r"please remove \1", ("off", "out")),
    # "the old gp can come out of ur notes", "that can go out of your memory"
    (r"(^|[.!?;]\s+|,\s+)((?:the|my|our|that|this|those|these|it)\b[^.?!;]{0,80}?)\s+(?:can|could|should|may|must)\s+"
     r"(?:come|go)\s+out\s+of\s+(?:your|ur|the)\s+(?:notes?|records?|memory|memories|files?)\b", r"\1please remove \2",
     ("out of your", "out of ur", "out of the")),
    # "I'd like you not to retain X", "I want you not to keep X" -> "please don't keep X"
    (r"\b(?:i(?:'d|’d|\s+would)\s+(?:like|prefer)|i\s+(?:want|need))\s+you\s+not\s+to\s+(?:keep|retain|store|remember|hold\s+on\s+to|save)\b",
     "please don't keep", ("not",)),
    # "I'd like X gone from your memory", "I want all three taken out of what you know about me"
    (r"\b(?:i(?:'d|’d|\s+would)\s+like|i\s+want|i\s+need)\s+((?:(?!\b(?:gone|removed|taken)\b)[^.?!;]){1,120}?)\s+"
     r"(?:gone|removed|deleted|erased|wiped|taken\s+out)\s+(?:from|out\s+of)\s+(?:your\s+(?:memory|memories|notes|records)|"
     r"what\s+you\s+know(?:\s+about\s+me)?)\b", r"please remove \1", ("gone", "removed", "deleted", "erased", "wiped", "taken")),
    # "remove from your records the date of birth I gave you" -> "remove the date of birth …"
    (r"\b(remove|delete|erase|wipe|drop|clear)\s+from\s+your\s+(?:records|memory|notes|files)\s+(?=(?:the|my|any|all|every)\b)",
     r"\1 ", ("from",)),
    # "please take that off", "take him off as my partner" -> "remove that", "remove him …"
    (r"\btake\s+(it|that|this|them|those|him|her)\s+off\b(?!\s+(?:the\s+)?(?:heat|stove|hob|boil))", r"remove \1",
     ("take",)),
    # "let's pretend I never told you about the loan"
    (r"\b(?:let(?:'s|’s|\s+us)|can\s+we|could\s+we|(?:can|could|would|will)\s+(?:you|u))\s+(?:just\s+)?(?:pretend|act\s+(?:like|as\s+if))\s+"
     r"i\s+never\s+(?:told\s+you|mentioned|said|shared)\s+(?:about\s+)?", "forget ", ("pretend", "act")),
    # "hold on to", "hang onto", "keep hold of": keeping
    (r"\b(?:hold|hang)(ing)?\s+on(?:to|\s+to)\b|\bkeep(ing)?\s+hold\s+of\b",
     lambda m: "keeping" if m.group(1) or m.group(2) else "keep", ("hold", "hang")),
    # "where I take the animals and my transit pass shouldn't stay with you"
    (r"(^|[.!?;:—–]\s+|,\s+(?:(?:but|so|and)\s+)?|\bso\s+)((?:my|the|where|what|which|who|when|how|that|those|these)\b"
     r"(?:(?!\b(?:shouldn't|should\s+not|mustn't|doesn't|does\s+not|needn't)\b)[^.?!;]){1,160}?)\s+"
     r"(?:shouldn't|shouldn’t|should\s+not|mustn't|must\s+not|doesn't\s+need\s+to|does\s+not\s+need\s+to|"
     r"don't\s+need\s+to|needn't)\s+(?:stay\s+with\s+you|be\s+(?:stored|kept|saved|remembered|on\s+file|"
     r"in\s+your\s+(?:notes|records|memory)))\b"
     # (the sentence ends there: "The kids shouldn't stay with you this weekend" is no request)
     r"(?=\s*(?:[.!?;,:—–)]|$|\s(?:please|pls|anymore|any\s+more|anywhere|at\s+all|either|too|"
     r"thanks|ok)\b))",
     r"\1please don't keep \2", ("should", "must", "need")),
    # "I'd just as soon you didn't keep it" is "I'd rather you didn't keep it"
    (r"\bi(?:'d|’d|\s+would)\s+(?:just\s+)?(?:as\s+soon|sooner)\s+you\b", "i'd rather you", ("soon", "sooner")),
    # "I'd rather you lost that", "I'd prefer it if you forgot my PIN" -> "forget …"
    (r"\bi(?:'d|’d|\s+would)\s+(?:rather|prefer(?:\s+it\s+if)?)\s+you\s+(?:just\s+)?(?:lost|forgot|deleted|dropped|"
     r"erased|binned|ditched|wiped|removed|scrapped)\b", "please forget", ("rather", "prefer")),
    # "I'd feel better if my diagnosis wasn't stored anywhere" -> "don't keep my diagnosis"
    (r"\bi(?:'d|’d|\s+would)\s+(?:feel\s+(?:better|happier|safer)|be\s+(?:happier|more\s+comfortable)|prefer\s+it|"
     r"like\s+it)\s+if\s+((?:(?!\b(?:wasn't|weren't|was\s+not|were\s+not|isn't|is\s+not)\b)[^.?!;]){2,80}?)\s+"
     r"(?:wasn't|weren't|was\s+not|were\s+not|isn't|is\s+not)\s+(?:stored|kept|saved|remembered|on\s+file|"
     r"on\s+record|in\s+your\s+\w+)\b", r"please don't keep \1", ("stored", "kept", "saved", "remembered", "on file", "on record", "in your")),
    # "Two things to get rid of: X and Y", "Things I don't want kept: X and Y" -> "please forget X and Y"
    (r"\b(?:(?:a\s+few|two|three|some|\d)\s+)?things\s+(?:for\s+you\s+)?(?:to\s+(?:forget|delete|remove|erase|drop|"
     r"wipe|get\s+rid\s+of|let\s+go\s+of|lose|scrap|bin|ditch)|i\s+(?:don't|do\s+not)\s+want\s+(?:you\s+to\s+)?"
     r"(?:kept|stored|remembered|keep|store|remember))\s*:\s*", "please forget ", ("things",)),
    # "Neither my Instagram handle nor my Twitter one needs to be remembered"
    (r"\bneither\s+((?:my|the|our)\b[^.?!;]{1,60}?)\s+nor\s+((?:my|the|our)\b[^.?!;]{1,60}?)\s+(?:needs?|has|have)\s+"
     r"to\s+be\s+(?:remembered|kept|stored|saved)\b", r"please don't keep \1 or \2", ("neither",)),
    # "the hotel and our room number, I'd prefer those weren't remembered"
    (r"(^|[.!?;:]\s+)((?:my|the|our)\b[^.?!;]{1,120}?),\s+i(?:'d|’d|\s+would)\s+(?:prefer|rather)\s+(?:if\s+)?"
     r"(?:those|these|they|that|it|both)\s+(?:weren't|wasn't|were\s+not|was\s+not)\s+(?:remembered|kept|stored|saved)\b",
     r"\1please don't keep \2", ("prefer", "rather")),
    # "a clean sweep of everything relating to my marriage" -> "forget everything …"
    (r"\b(?:let(?:'s|’s|\s+us)\s+)?(?:do|make|have)\s+a\s+clean\s+sweep\s+of\b", "please forget", ("clean sweep",)),
    # "I'd rather you knew nothing about it", "if nothing about my health stayed in your memory"
    (r"\bi(?:'d|’d|\s+would)\s+rather\s+you\s+(?:knew|kept|had|remembered)\s+nothing\s+(?:about|of)\s+",
     "please forget everything about ", ("nothing",)),
    (r"\bif\s+nothing\s+(?:about|of|on|from)\s+((?:(?!\bstay)[^.?!;]){2,60}?)\s+(?:stayed|stays|remained|remains|"
     r"was\s+kept|were\s+kept|was\s+stored)\b(?:\s+(?:in\s+your\s+(?:memory|notes|records)|with\s+you))?",
     r", please forget everything about \1", ("nothing",)),
    # "replace the previous GP in memory", "overwrite the figure you had before": an update's
    # old value goes (only with a sign the object is what memory holds, not "replace the
    # onions with leeks")
    (r"\b(?:replace|swap\s+out)\s+((?:(?!\bwith\b)[^.?!;]){2,80}?)\s+with\s+(?:the\s+new\s+one|the\s+new\s+\w+|[^.?!;]{1,60}?)"
     r"(?:\s+everywhere)?(?=\s*(?:[.?!;]|$|,?\s+(?:please|instead|from\s+now\s+on|and)\b))", r"remove \1", ("replace", "swap out")),
    (r"(\b(?:you\s+had|you\s+have|you've\s+got|before|previous|old)\b[^.?!;]{0,40}?)\b(?:replace|overwrite)\s+"
     r"(it|that|them)\b", r"\1remove \2", ("replace", "overwrite")),
    (r"\b(?:replace|overwrite|swap\s+out)\s+(?=[^.?!;]*\b(?:old|previous|former|earlier|before|memory|notes|records|"
     r"everywhere|you\s+had|you\s+have|you've\s+got|on\s+file|out\s+of\s+date|isn't\s+accurate|not\s+accurate)\b)",
     "remove ", ("replace", "overwrite", "swap out")),
    # "drinking and my recovery - everything ive said about that, pls drop it", "My conflict at
    # work with the Teamleiter, all you have about it, erase it": the topic said first, then
    # "everything about it" -> "everything about drinking and my recovery, … drop it"
    # (not "I want you to forget it, all of it": the topic holds no removal of its own)
    (r"(^|[.!?]\s+)((?:(?![.?!;,—–]|\s-\s|\b(?:forget|delete|erase|remove|wipe|drop|keep|store|want|like)\b)[^\n]){3,100}?)"
     r"\s*(?:,|[—–]|\s-)\s*(?:(?:every|any)thing|all|whatever|all\s+the\s+story)\s+"
     r"(?:(?:i(?:'ve|’ve|ve|\s+have)?|you(?:'ve|’ve|\s+have)?)\s+(?:\w+\s+){0,3}?)?(?:about|on|regarding)\s+(?:it|that|this|them)\b",
     r"\1everything about \2", ("about it", "about that", "about this", "about them", "on it", "on that", "regarding")),
    # "I'd honestly rather there was no record of it" -> "please don't keep it"
    (r"\bi(?:'d|’d|\s+would)\s+(?:\w+\s+)?rather\s+there\s+(?:was|were)\s+no\s+(?:record|trace|note)\s+of\s+",
     "please don't keep ", ("rather",)),
    # "can you make sure the old mobile is properly gone?" -> "remove the old mobile"
    (r"\bmake\s+sure\s+((?:my|the|that|this|those|these)\b[^.?!;]{1,80}?)\s+(?:is|are)\s+(?:properly\s+|really\s+|totally\s+|"
     r"completely\s+)?(?:gone|deleted|removed|erased|wiped)\b", r"remove \1", ("make sure",)),
    # "Please take his number off." (a personal detail taken off, not a coat)
    (r"\btake\s+((?:my|his|her|their|the)\s+(?:[\w'’-]+\s+)?(?:" + _PERSONAL_DATA + r"))\s+off\b(?!\s+(?:the|a|my|your)\b)",
     r"remove \1", ("take",)),
    # "Nothing from tonight needs to be remembered" -> "forget everything from tonight"
    (r"(^|[.!?;:]\s+)nothing\s+(from|about|of)\s+((?:(?!\bneeds?\b)[^.?!;]){2,60}?)\s+needs?\s+to\s+be\s+"
     r"(?:remembered|kept|stored|saved)\b", r"\1please forget everything I told you \2 \3", ("nothing",)),
    # "Mind dropping my salary …?" -> "drop my salary"
    (r"(^|[.!?;:]\s+|,\s+)mind\s+(forget|eras|delet|remov|wip|purg|scrubb?|clear|discard|ditch|binn?|scrapp|dropp|toss|dump)"
     r"(?:e)?ing\b", lambda m: m.group(1) + _GERUND_STEMS.get(m.group(2).lower(), m.group(2)), ("mind",)),
    # "would you mind (terribly) not keeping X" -> "don't keep X"
    (r"\bwould\s+you\s+mind\s+(?:\w+\s+)?not\s+(?:keep|stor|remember|sav|retain|us|record|track)(?:e|ing)?\b",
     "please don't keep", ("mind",)),
    # "don't go putting two and two together", "don't connect the dots"
    (r"\b(don't|do\s+not|never)\s+go\s+", r"\1 ", ("go",)),
    (r"\bconnect(?:ing)?\s+(?:the|any)\s+dots\b", "put two and two together", ("dots",)),
    # "she'd like me to have the second doctor I gave you taken out of your memory": the
    # causative "have X taken out of" asks for X's removal
    (r"\b(?:(?:i|i'd|she'd|he'd|we'd|they'd|[a-z]+\s+would)\s+like\s+(?:me|us)\s+to\s+)?have\s+"
     r"((?:(?!\b(?:taken|removed|deleted|wiped|erased|cleared)\b)[^.?!;]){2,80}?)\s+(?:taken\s+out\s+of|"
     r"removed\s+from|deleted\s+from|wiped\s+from|erased\s+from|cleared\s+(?:out\s+)?(?:of|from))\s+(?:your|ur|the)\s+"
     r"(?:memory|notes|records?|files?|system)\b", r"please remove \1 from your memory", ("have",)),
    # "I don't want that kept", "I'd rather it wasn't stored"
    (r"\bi\s+(?:don't|do\s+not|no\s+longer)\s+want\s+((?:(?!\bkept\b)[^.?!;]){1,60}?)\s+"
     r"(?:kept|stored|saved|remembered|on\s+file|on\s+record)\b", r"i don't want you to keep \1", ("want",)),
    # "I don't want that sitting in your notes", "… any of it hanging around"
    # (not a count: "I don't want two numbers floating around" says why the old one goes)
    (r"\b(?:i\s+)?(?:really\s+)?(?:don't|do\s+not)\s+want\s+(?!(?:two|three|2|3|multiple|several|duplicate)\s+[a-z]+s\b)"
     r"((?:(?!\b(?:sitting|hanging|floating|lying|kicking)\b)[^.?!;]){1,60}?)\s+"
     r"(?:sitting|hanging|floating|lying|kicking)\s+(?:around|about|there|somewhere|in\s+(?:your|ur|the)\s+\w+)\b",
     r"i don't want you to keep \1", ("want",)),
    # "I'd rather none of what I told you that night stays with you"
    (r"\b(i(?:'d|’d|\s+would)?\s+(?:\w+\s+)?rather)\s+none\s+of\s+((?:(?!\bstays?\b)[^.?!;]){1,80}?)\s+"
     r"(?:stays?|stay(?:ed)?)\s+with\s+you\b", r"\1 you didn't keep any of \2", ("none",)),
    # "let whatever I told you about X go" -> "forget whatever I told you about X"
    (r"\blet\s+((?:(?!\bgo\b)[^.?!;]){2,80}?)\s+go\b(?!\s+(?:to|and|with|for|on|out|through|ahead|back|home|of))",
     r"forget \1", ("let",)),
    # "all the details about X can go" -> "forget all the details about X"
    (r"(^|[.!?;:]\s+|\bso\s+|\band\s+)((?:all|any|every|each|the|my|that|those|these|whatever|everything|anything)"
     r"\b(?:(?!\b(?:go|can)\b)[^.?!;]){0,80}?)\s+can\s+(?:go|be\s+(?:deleted|removed|forgotten|erased|dropped|binned|"
     r"scrapped|wiped))\b(?=\s*(?:$|[.!?,;:—–)])|\s+(?:now|too|as\s+well|completely|entirely|for\s+good|forever|but)\b)",
     r"\1forget \2", ("can",)),
    # "is it possible for you to not have X", "could you not keep X" -> "don't keep X"
    (r"\b(?:is\s+it\s+possible\s+for\s+you\s+to|(?:can|could|would|will)\s+you(?:\s+please)?)\s+not\s+"
     r"(?:have|keep|store|remember|hold|save|retain|record)\b", "please don't keep", ("not",)),
    # "would you mind clearing out X" -> "clear X"
    (r"\b(?:would|do)\s+you\s+mind\s+(?:(?:just|please)\s+)?(forget|eras|delet|remov|wip|purg|scrubb?|clear|"
     r"discard|ditch|binn?|scrapp|dropp|toss|dump)(?:e|t)?ing(?:\s+(?:out|away|off))?\b",  # "forgetting"
     lambda m: _GERUND_STEMS.get(m.group(1).lower(), m.group(1)), ("mind",)),
    # an update's old value written off without a verb: "the old one is out of date", "what I
    # told you before no longer holds", "the previous one shouldn't come up again"
    (r"\b(?:the\s+)?(?:old|previous|earlier|former|outdated|last)\s+(?:one|ones|version|value|answer|info|"
     r"information|detail)\s*(?:is|are|'s|’s)?\s*(?:no\s+longer\s+(?:relevant|valid|true|correct|right|accurate|"
     r"current|needed|holds?|applies|in\s+use|worth\s+(?:keeping|storing|remembering))|(?:out\s+of\s+date|outdated|"
     r"obsolete|wrong|of\s+no\s+use|no\s+use(?:\s+any\s*more)?)|should(?:n't|n’t|\s+not)\s+(?:come\s+up|be\s+used)"
     r"(?:\s+again)?|(?:does|do)(?:n't|n’t|\s+not)\s+(?:apply|count|hold)(?:\s+any\s*more)?)",
     "forget the old one", ("old", "previous", "earlier", "former", "outdated", "last")),
    (r"\b(?:whatever|what)\s+(?:you\s+had|i\s+had|i\s+(?:told\s+you|said|gave\s+you))\s+(?:before|earlier|previously)"
     r"\s*(?:is|was)?\s*(?:no\s+longer\s+(?:holds?|applies|valid|true|relevant|correct|right|worth\s+(?:keeping|"
     r"storing|remembering))|out\s+of\s+date|outdated|wrong|obsolete|(?:does|do)(?:n't|n’t|\s+not)\s+apply)",
     "forget the old one", ("before", "earlier", "previously")),
    # "I'd like the stuff about my car off your records" -> "remove the stuff about my car"
    (r"\b(?:i(?:'d|’d|\s+would)\s+like|i\s+want)\s+((?:(?!\boff\b)[^.?!;]){2,160}?)\s+(?:taken\s+)?off\s+(?:your|ur)\s+"
     r"(?:records?|notes?|memory|file|files|system)\b", r"remove \1", ("off",)),
    # "would you mind letting go of who my nan is" -> "let go of …"
    (r"\b(?:would|do)\s+you\s+mind\s+(?:just\s+)?letting\s+go\s+of\b", "please let go of", ("letting",)),
    # "Where my mother comes from and my car — none of that needs to be stored"
    (r"(^|[.!?;:]\s+|,\s+)((?:my|the|where|what|which|who|when|how)\b[^.?!;—–]{1,160}?)\s*[—–-]+\s*(?:none|nothing)\s+of\s+"
     r"(?:that|this|it|those|these|them)\s+(?:needs?\s+to\s+be|should\s+be|has\s+to\s+be|must\s+be)\s+"
     r"(?:stored|kept|saved|remembered|on\s+file|held\s+on\s+to)\b", r"\1please don't keep \2", ("none", "nothing")),
    # asking for no inference without the classic verbs: "don't go drawing conclusions about
    # X", "no deductions about X, please", "please don't hold any view on X", "I'd prefer you
    # never calculate X; if you already did, erase the result"
    (r"\b(don't|do\s+not|never)\s+(?:go\s+)?(?:drawing|making|jumping\s+to)\s+(?:any\s+)?(conclusions?|inferences?|"
     r"assumptions?)", r"\1 draw \2", ("drawing", "making", "jumping")),
    (r"(^|[.!?;:]\s+|,\s+)no\s+(?:more\s+)?(?:deductions?|inferences?|conclusions?|assumptions?|guesses|guessing|"
     r"speculation|theories)\s+(?=about|on|regarding|as\s+to)", r"\1don't infer anything ", ("deduction", "inference", "conclusion", "assumption", "guess", "speculation", "theories")),
    (r"\b(?:don't|do\s+not|never)\s+(?:hold|form|have|keep|take)\s+(?:any|a)\s+(?:view|opinion|theory|position)\s+"
     r"(?=on|about|of|regarding|as\s+to)", "don't infer anything ", ("view", "opinion", "theory", "position")),
    (r"\b(?:(?:you|u)\s+(?:to\s+)?never|please\s+(?:don't|do\s+not|never))\s+(?:calculate|compute|work\s+out|"
     r"figure\s+out|estimate|tally\s+up|add\s+up)\b", "you don't draw any conclusion about", ("calculate", "compute", "work out", "figure out", "estimate", "tally up", "add up")),
    (r"\b(?:don't|do\s+not)\s+bother\s+(?:keeping|storing|remembering|with)\s+(?:the\s+)?(old|previous|earlier)"
     r"(?:\s+one)?\b", r"forget the \1 one", ("bother",)),
    # "I'd like all my pastimes removed", "I want that deleted"
    (r"\b(?:i(?:'d|’d|\s+would)\s+like|i\s+want)\s+((?:(?!\b(?:removed|deleted|erased|forgotten|wiped|gone|dropped|"
     r"cleared)\b)[^.?!;]){2,80}?)\s+(?:removed|deleted|erased|forgotten|wiped|gone|dropped|cleared)\b", r"remove \1", ("removed", "deleted", "erased", "forgotten", "wiped", "gone", "dropped", "cleared")),
    # "the court date I mentioned isn't something I want kept around" -> "don't keep …"
    (r"(^|[.!?;:—–]\s+|,\s+)((?:my|the|that|this|those|these|anything|everything|whatever)\b[^.?!;]{1,100}?)\s+"
     r"(?:isn't|is\s+not|aren't|are\s+not)\s+(?:something|anything|stuff)\s+i(?:\s+want|'d\s+like|’d\s+like|\s+would\s+like)"
     r"\s+(?:kept|stored|saved|remembered|on\s+file|on\s+record|in\s+(?:your|ur)\s+memory)\b", r"\1please don't keep \2", ("something",
                                                                                       "anything", "stuff")),
    # "The therapist's name and the clinic's address — neither should stay in memory"
    (r"\b(?:neither|none)(?:\s+of\s+(?:it|them|those|these|that|this))?\s+(?:should|needs?\s+to|has\s+to|must)\s+"
     r"(?:stay|be\s+(?:kept|stored|remembered|saved))(?:\s+in\s+(?:your\s+)?memory)?", "please don't keep them",
     ("neither", "none")),
    # "don't save me as vegetarian", "please do not mark me down as anti-vax": a conclusion
    (r"\b(don't|do\s+not|never)\s+(?:save|file|mark|note|put|record|list|tag|label)\s+me\s+(?:down\s+)?as\b",
     r"\1 assume I'm", ("save", "file", "mark", "note", "put", "record", "list", "tag", "label")),
    (r"\b(don't|do\s+not)\s+(?:start|go\s+around|begin)\s+(?:assuming|thinking|deciding|concluding)\b", r"\1 assume",
     ("start", "around", "begin")),
    # "stop treating me like I'm broke", "stop acting like I have kids": the assistant's
    # conclusion about the user, told by how it behaves
    (r"\bstop\s+(?:(?:treating|talking\s+to|speaking\s+to|addressing|responding\s+to|writing\s+to|seeing|viewing|"
     r"regarding)\s+me|acting)\s+(?:like|as\s+if|as\s+though)\s+", "stop assuming ", ("stop",)),
    # "I request that all content from our session on 3 November be removed from your memory"
    (r"\bi\s+(?:request|ask|would\s+ask|must\s+ask)\s+that\s+((?:(?!\bbe\b)[^.?!;]){2,120}?)\s+(?:be|is)\s+"
     r"(?:removed|deleted|erased|forgotten|wiped|purged|cleared)\b", r"please remove \1", ("request", "ask")),
    # "please don't file that away"
    (r"\bfile\s+(that|this|it|them)\s+away\b", r"keep \1", ("file",)),
    # "the pregnancy thing — act like I never said it"
    (r"\bact\s+(?:like|as\s+if)\s+i\s+never\s+(?:said|told\s+you|mentioned)\s+(?=it|that|this)", "forget ",
     ("never",)),
    # "you don't need to keep X", "no need to remember X"
    (r"\b(?:you\s+(?:don't|do\s+not)\s+need\s+to|there's\s+no\s+need\s+to|no\s+need\s+to)\s+"
     r"(keep|remember|store|save|retain)\b", r"don't \1", ("need",)),
    # "X need not be kept any longer", "X needn't be stored"
    (r"\b((?:my|the|our|his|her|their)\b[^.?!;]{1,120}?),?\s+(?:need\s+not|needn't|needn’t|does\s+not\s+need\s+to|"
     r"doesn't\s+need\s+to)\s+be\s+(?:kept|stored|retained|remembered|saved|held)\b", r"please don't keep \1",
     ("need not", "needn't", "needn’t", "need to be")),
    # "It would ease my mind if you no longer retained X", "I'd be glad if you didn't keep X"
    (r"\bif\s+you\s+(?:no\s+longer|didn't|did\s+not|would\s+not|wouldn't|stopped)\s+(?:retain|keep|stor|remember|"
     r"hold|sav)(?:ed|ing|e)?\b", ", please don't keep", ("if you",)),
    # "I'd be obliged if the amlodipine were removed", "I'd be grateful if that could be struck"
    (r"\bi(?:'d|’d|\s+would|\s+should)\s+be\s+(?:\w+\s+)?(?:obliged|grateful|glad|happy|pleased|relieved)\s+if\s+"
     r"((?:(?!\b(?:were|was|could|is|be)\b)[^.?!;]){2,100}?)\s+(?:were|was|could\s+be|is|be)\s+"
     r"(?:removed|deleted|erased|struck|forgotten|discarded|dropped|taken\s+out)\b", r"please remove \1",
     ("obliged", "grateful", "glad", "happy", "pleased", "relieved")),
    # "can that not be stored?", "can it not be kept"
    (r"\bcan\s+(that|it|this|those|these|they)\s+not\s+be\s+(?:stored|kept|saved|remembered|on\s+file)\b",
     r"please don't keep \1", ("not be",)),
    # "take off the record the price I paid", "take that off the record"
    (r"\btake\s+off\s+the\s+record\b", "remove", ("off the record",)),
    (r"\btake\s+((?:(?!\boff\b)[^.?!;]){1,60}?)\s+off\s+the\s+record\b", r"remove \1", ("off the record",)),
    # "I should like all of it put out of your memory", "put it out of your mind"
    (r"\b(?:i\s+(?:should|would)\s+(?:\w+\s+)?|i(?:'d|’d)\s+(?:\w+\s+)?)?(?:like|want)\s+((?:(?!\bput\b)[^.?!;]){1,60}?)\s+"
     r"put\s+out\s+of\s+your\s+(?:memory|mind|head)\b", r"please forget \1", ("out of your",)),
    (r"\bput\s+((?:it|that|this|them|those|all\s+of\s+(?:it|that))\b)\s+out\s+of\s+your\s+(?:memory|mind|head)\b",
     r"forget \1", ("out of your",)),
    # "make like it never happened", "pretend it never happend", "I should like (it) treated as
    # though it had never taken place"
    # "I would be grateful if you erased …": the ask in the past tense a conditional takes
    (r"\b((?:happier|better|grateful|glad|thankful|relieved|comfortable)\s+if\s+you\s+(?:just\s+)?)(erased|deleted|removed|"
     r"forgot|wiped|dropped|scrapped|cleared|binned|ditched)\b",
     lambda m: m.group(1) + _PRESENT_OF[m.group(2).lower()], ("if you",)),
    # "I'd prefer you wiped everything about her coming": a preference for the past tense
    (r"\b((?:prefer|rather)\s+(?:that\s+|if\s+)?you\s+(?:just\s+)?)(erased|deleted|removed|forgot|wiped|dropped|"
     r"scrapped|cleared|binned|ditched)\b",
     lambda m: "like you to " + _PRESENT_OF[m.group(2).lower()], ("prefer", "rather")),
    # "and while ur at it get rid of …": another ask in the same message
    (r"\b(?:and\s+)?while\s+(?:you're|you’re|youre|your|you\s+are|u\s+r|ur)\s+at\s+it\b,?", "and also",
     ("at it",)),
    # "his name and the whole story, I don't want that in your memory anymore": don't keep that
    (r"\bi\s+(?:don't|dont|don’t|do\s+not|no\s+longer)\s+want\s+(that|it|this|them|those|these|any\s+of\s+(?:that|it|them))"
     r"\s+(?:in|on|inside)\s+(?:your|ur|the)\s+(?:memory|memories|notes?|records?|files?|system|head)\b",
     r"please don't keep \1", ("want that", "want it", "want this", "want them", "want those", "want these", "want any")),
    # "the old address is dead to me": forget it
    (r"\b((?:the|my|that)\s+(?:old|previous|former|last)\s+[^.?!;,]{1,40}?)\s+(?:is|'s|’s)\s+dead\s+to\s+me\b",
     r"forget \1", ("dead to me",)),
    # ("act like that convo never happened": that conversation)
    (r"\b(?:pretend|make\s+like|act\s+like|act\s+as\s+if)\s+((?:it|that|this|they|those)(?:\s+(?:whole\s+)?(?:convo|"
     r"conversation|chat|talk|exchange|night|evening|message|messages|session))?)\s+(?:never\s+happen(?:ed|d)|"
     r"(?:had\s+)?never\s+(?:been\s+said|taken\s+place|existed))\b", r"forget \1", ("never",)),
    (r"\b(?:i\s+(?:should|would)\s+(?:\w+\s+)?|i(?:'d|’d)\s+(?:\w+\s+)?)?(?:like|want)\s+(?:it\s+|that\s+)?treated\s+as\s+"
     r"(?:though|if)\s+it\s+(?:had\s+)?never\s+(?:happened|taken\s+place|been\s+said)\b", "please forget it", ("treated",)),
    # "Could I trouble you to …", "Might I ask you to …", "Would you be so kind as to …": please
    (r"\b(?:could|may|might|can)\s+i\s+(?:trouble|ask|bother|beg)\s+you\s+to\b|\bwould\s+you\s+be\s+so\s+kind\s+as\s+to\b",
     "please", ("trouble", "ask you", "bother", "beg", "so kind")),
    # "that's not something I want you holding onto": "please don't keep that"
    (r"\b(?:that's|that’s|thats|that\s+is|it's|it’s|its|this\s+is)\s+not\s+something\s+i(?:'d|’d|\s+would)?\s+(?:want|like)\s+"
     r"you\s+(?:to\s+)?(?:keep(?:ing)?|stor(?:e|ing)|remember(?:ing)?|hav(?:e|ing)|retain(?:ing)?)\b", "please don't keep that",
     ("not something",)),
    # removal verbs that mean forgetting only of what was said: "disregard the hep B exposure
    # I mentioned", "set aside two things I shared", "dispose of my telephone number … I
    # provided" (not "set aside some money", "dispose of the old mattress")
    (r"\b(?:disregard|dispose\s+of|set\s+aside|put\s+aside|withdraw)\s+(?=[^.?!;]*\b(?:i\s+(?:\w+\s+)?(?:shared|mentioned|told|"
     r"said|gave|made|wrote|provided|described|confided|typed)|you\s+(?:hold|have|had|kept|stored|retain|noted))\b)",
     "forget ", ("disregard", "dispose", "aside", "withdraw")),
    # … and of a pronoun, which points at something said: "typed my banking password into our
    # conversation. Kindly dispose of it at once"
    (r"\bdispose\s+of\s+(?=(?:it|that|this|them)\b)", "forget ", ("dispose",)),
    # "i'd rather u didnt have that stored anywhere"
    (r"\bi(?:'d|’d|\s+would)\s+rather\s+(?:you|u)\s+(?:didn't|didnt|didn’t|did\s+not)\s+have\s+"
     r"((?:(?!\b(?:stored|kept|saved)\b)[^.?!;]){1,60}?)\s+(?:stored|kept|saved|on\s+file|written\s+down)\b",
     r"please don't keep \1", ("rather",)),
    # "Better you don't remember this thing"
    (r"\b(?:it(?:'s|’s|\s+is|\s+would\s+be)\s+)?better\s+(?:if\s+)?(?:you|u)\s+(?:don't|dont|don’t|do\s+not|didn't|didnt|"
     r"did\s+not)\s+remember\s+", "please don't keep ", ("better",)),
]


_REWRITES = [(re.compile(pattern, re.I), repl, frozenset(needles)) for pattern, repl, needles in (*_TEXTING, *_IDIOMS)]
#: every rewrite's needles: a turn is searched for each once, not once per rewrite
_NEEDLES = tuple(sorted({needle for _, _, needles in _REWRITES for needle in needles}))
#: a sentence begun without the full stop before it: "quick before the kids wake Wipe whatever
#: I've said about money" — a capitalised removal verb after a lower-case word starts a clause
_UNPUNCTUATED_START = re.compile(
    r"(?<=[a-z0-9])\s+(?=(?:Please\s+)?(?:Forget|Delete|Erase|Remove|Wipe|Scrap|Drop|Bin|Ditch|Clear|Purge|Scrub|"
    r"Don't|Do not|Stop|Get rid)\b)")


#: "Everything concerning my dad's illness, please erase.", "The old one in Valencia please
#: delete.", "Everything about Jenny. Gone.": the object said first, the verb last with none
#: (and said to "you", as a writer of another language may: "The old one in Leipzig you
#: delete please", "The old school don't keep please")
_FRONTED_OBJECT = re.compile(
    r"(^|[.!?]\s+)(?:so\s+)?((?:everything|anything|all|whatever|the|my|our|any|every|both|that|those)\b[^.?!;]{2,120}?)"
    r"(?:(?:,\s*|\s*[—–]\s*|\s+)"
    r"(?:(?:please|kindly|just)\s+)*(?:you\s+(?:can\s+|may\s+|should\s+)?|i(?:'d|’d|\s+would|\s+should)\s+like\s+you\s+to\s+)?"
    r"(forget|delete|erase|remove|wipe|scrap|bin|drop|"
    r"purge|clear|ditch|scrub|discard|get\s+rid\s+of|don't\s+keep|do\s+not\s+keep|don't\s+retain|do\s+not\s+retain)"
    # ("the old one, you can drop him completely": the pronoun is the object said first)
    r"(?:\s+(?:him|her|it|them|that))?(?:\s+(?:completely|entirely|altogether))?|"
    r"[.!]\s+(gone))(?:\s+(?:please|thanks|now))?\s*(?=[.!,;]|$)", re.I)
#: … whose cheap sign is a removal verb (or "gone") that ends its sentence (or its clause)
_VERB_ENDS_SENTENCE = re.compile(r"\b(?:forget|delete|erase|remove|wipe|scrap|bin|drop|purge|clear|ditch|scrub|gone|keep|"
                                 r"discard|retain|rid\s+of)"
                                 r"(?:\s+(?:please|thanks|now))?\s*(?:[.!,;]|$)", re.I)
#: "that second account number I gave you, the savings one": what was said is no clause of its own
_TOLD_RELATIVE = re.compile(r"\b(?:that\s+|which\s+)?i(?:'ve|’ve|\s+have)?\s+(?:gave|given|told|sent|mentioned|shared|wrote)"
                            r"(?:\s+(?:you|u))?(?:\s+about)?\b", re.I)


#: an affair named as a whole: "I'm so over this insurance saga. wipe all of it"
_AFFAIR = re.compile(r"\b(?:saga|drama|palaver|carry-on|rigmarole|malarkey)\b", re.I)
#: a thing named right after a pronoun to say which: "the amount i mean", "I mean the account number"
_I_MEAN = re.compile(r"^\W*(?:(?P<x>(?:the|my|our|his|her)\s+[^.!?,]{1,40}?),?\s+i\s+mean|i\s+mean\s+"
                     r"(?P<y>(?:the|my|our|his|her)\s+[^.!?,]{1,40}?))\W*$", re.I)
#: where the news before a fronted object ends: "… this time, so all that custody stuff …",
#: "… Sébastien Orsini now, and the old one, you can drop him"
_LEAD_IN = re.compile(r",\s+so\s+(?=all\b|everything\b|anything\b|whatever\b)"
                      r"|,\s+(?:and|but)\s+(?=(?:the|my|that|those|this|these|our)\s)", re.I)


def _object_first(m: re.Match[str]) -> str:
    if _HAS_VERB.search(_TOLD_RELATIVE.sub(" ", m.group(2))) or (m.group(4) and not _QUANTIFIED.match(m.group(2))):
        return m.group(0)  # a clause ("the WhatsApp history is gone"), or "gone" after a plain noun
    return f"{m.group(1)}please {m.group(3) or 'forget'} {m.group(2)}"


#: an ask begun mid-sentence in dictated speech: "… for the heart would you put that out of
#: your head …"
_DICTATED_ASK = re.compile(
    r"(?<=[a-z0-9'’])\s+(?=(?:so\s+)?(?:would|could|can|will)\s+you\s+(?:please\s+|just\s+|ever\s+)*(?:put|take|get|"
    r"forget|delete|erase|remove|wipe|scrap|drop|bin|ditch|clear|let|not|stop|leave)\b"
    # "… at the mart anyway but I don't want you adding it up … and if you have it worked out"
    r"|(?:but|and)\s+(?:i\s+(?:don't|do\s+not)\s+want\s+you|if\s+you(?:'ve|’ve|\s+have)?)\b)", re.I)
#: … and the exception said after it: "… out of your head altogether the one at night …"
_DICTATED_AFTER = re.compile(
    r"\b(altogether|completely|entirely|for\s+good|as\s+well|please|at\s+all)\s+(?=(?:the|my|but|and\s+the|and\s+my)\b)",
    re.I)
#: where written text breaks a sentence; dictated text runs on past this many characters
_BREAK = re.compile(r"[.!?;:\n—–]")
RUN_ON_LENGTH = 220


def _punctuate_dictation(text: str) -> str:
    """Sentence breaks where dictated speech ("… I take in the mornings for the heart would
    you put that out of your head altogether the one at night for the cholesterol is no harm
    you can keep that one") runs an ask and its exception into the sentence before."""
    if len(text) < RUN_ON_LENGTH or max(map(len, _BREAK.split(text))) < RUN_ON_LENGTH:
        return text  # (a split, not a search for a long run: that is quadratic in a long turn)
    return _DICTATED_AFTER.sub(r"\1. ", _DICTATED_ASK.sub(". ", text))


def canonical_request_text(text: str) -> str:
    """A user turn with texting spellings expanded and removal idioms in plain words: only
    what the request grammar reads; the memory keeps the user's own words."""
    text = _punctuate_dictation(_UNPUNCTUATED_START.sub(". ", text))
    screen = " ".join(text.lower().split())
    present = {needle for needle in _NEEDLES if needle in screen}
    for pattern, repl, needles in _REWRITES:
        if needles and present.isdisjoint(needles):
            continue
        text, changed = pattern.subn(repl, text)
        if changed:
            screen = " ".join(text.lower().split())
            present = {needle for needle in _NEEDLES if needle in screen}
    if _VERB_ENDS_SENTENCE.search(text):
        text = _FRONTED_OBJECT.sub(_object_first, text)
    return text


def parse_forget_request(text: str, known: Known | None = None) -> ForgetIntent | None:
    """The forget request in a user turn, or ``None`` when the turn asks for no removal.

    ``known`` (optional) says whether a phrase is about something the memory holds: an
    object with no other sign of being personal ("forget the formal tone") counts as a
    request only then. Without it every "forget X" does."""
    if not may_be_request(text):  # most turns stop here, before any rewriting
        return None
    text = canonical_request_text(text)
    if not _SCREEN.search(text):
        return None
    intent = _parse(text, known)
    if intent is None or (intent.kind in (ForgetKind.FACT, ForgetKind.FACTS) and not any(
            _names_something(t) and not _MEMORY_PLACE.fullmatch(t.strip()) for t in intent.targets)):
        # "Just because I asked about wheelchairs doesn't mean I'm disabled. Please stop
        # working from that idea.": the conclusion is stated, and the removal points at it
        intent = _conclusion_pointed_at(text) or intent
    if intent is not None:
        intent.text = text
    return intent


#: a removal said of the conclusion: "drop that idea", "remove that", "cross it out", "stop
#: with that", "stop working from that idea"
_DROP_IT = re.compile(
    r"\b(?:drop|remove|delete|erase|scrap|forget|bin|ditch|cross|clear|wipe|lose|scratch|strike|undo|purge|correct|fix)\b"
    r"[^.;!?]{0,20}?\b(?:that|it|this|the\s+(?:idea|assumption|label|conclusion|inference|note))\b"
    r"|\bstop\s+(?:with\s+(?:that|it|this)|working\s+from|using\s+(?:that|it|this)|thinking\s+(?:that|it|this))\b",
    re.I,
)
#: the reason a conclusion was drawn: something the user asked or looked up
_ASKED_ONLY = re.compile(r"\b(?:because|bc|cos|cause|since|from)\s+(?:i|my)\s+(?:asked|ask|looked|searched|googled|"
                         r"question|questions|was\s+asking|wanted\s+to\s+know)\b", re.I)
#: a target that says where, not what: "from memory"
_MEMORY_PLACE = re.compile(r"(?:from|out\s+of|in)\s+(?:your\s+|ur\s+|my\s+|the\s+)?(?:memory|memories|notes|records?)\W*", re.I)


def _conclusion_pointed_at(text: str) -> ForgetIntent | None:
    """An F4 whose conclusion the user says the assistant drew in one sentence ("Just because
    I looked up AA meetings doesn't mean I'm an alcoholic", "u seem to have decided im gay")
    and removes in another by a pronoun ("Drop that idea.", "so cross it out"); or that a
    "don't remember me as …" removes itself, when what led to it was something asked."""
    disputed = next((m for m in _DISPUTED.finditer(text) if _A_VIEW.match(m.group(0))), None)
    if disputed is None:
        return None
    if disputed.group("remember"):
        if not re.search(r"\b(?:don't|dont|don’t|do\s+not|never)\s+$", text[: disputed.start()], re.I):
            return None
        if not _ASKED_ONLY.search(text):
            return None  # "Please don't remember me as grumpy" is a wish, not a removal
    elif not _DROP_IT.search(text):
        return None
    if re.search(r"(?<!why\s)\b(?:do|does|did|would|could|should|will)\s*$", text[: disputed.start()], re.I):
        return None  # "Do you think I'm overreacting? Should I drop it?" asks; "why do u think im …" objects
    being = "I have" if disputed.group("have") else "I'm"
    trait = re.sub(r"(?:\s+(?:lol|lmao|haha|tbh|though|honestly|either))+$", "", disputed.group("trait").strip(), flags=re.I)
    conclusion = f"the conclusion that {being} {trait}"
    sentences = [s for s in re.split(r"(?<=[.!?])\s+", text) if s.strip()]
    directives = [s for s in sentences if _DROP_IT.search(s) or disputed.group(0) in s]
    return ForgetIntent(ForgetKind.CONCLUSION, targets=[conclusion],
                        statements=[s for s in sentences if s not in directives], directives=directives)


#: a dispute about a view of the user (not "I'm not going to the party, forget it"): the
#: assistant's, or what a question was taken to mean
_A_VIEW = re.compile(r"\W*(?:you|u\b|doesn|does|don|didn|picture|image|impression|idea|view|as\s+meaning|remember|think|see)", re.I)


#: a pronoun object said to go for good: "please let it go entirely" means something said
#: before, whatever task follows ("Forget it. Write me a poem" waves the task's point away)
_FOR_GOOD = re.compile(r"\s*(?:it|that|this|them|all\s+of\s+(?:it|that|them))\s+(?:entirely|completely|altogether|"
                       r"for\s+good|permanently|from\s+(?:your\s+)?memory)\b", re.I)


def _parse(text: str, known: Known | None = None) -> ForgetIntent | None:

    from bemula.systems.erasemem.timeparse import parse_time_reference

    pieces = _clauses(text)
    clauses: list[tuple[str, re.Match[str] | None]] = [
        (c, _find_directive(c, known, pieces[:n] + pieces[n + 1:])) for n, c in enumerate(pieces)]
    directives: list[tuple[str, str, str]] = []  # (directive text, verb, object)
    statements: list[str] = []
    consumed: set[int] = set()
    spoken: dict[str, str] = {}  # object named as something the user said -> the sentence saying so
    pairs: set[str] = set()  # "X, Y" that a "both" points at: two items however bare
    counted_back: set[str] = set()  # what a count ("both of those") points back at: two items or more
    bulleted: dict[str, list[str]] = {}  # a list given line by line after "…:", as one object -> its items
    asides: list[str] = []  # what a bracket in an item keeps ("(NOT the triptan, keep that one)")
    for i, (clause, match) in enumerate(clauses):
        if match is None:
            continue
        if i == 0 and _DISMISSAL.match(clause):
            continue  # "Forget it, the restaurant is closed anyway.": nothing said before it to forget
        following = clauses[i + 1][0] if i + 1 < len(clauses) else ""
        if (following and clauses[i + 1][1] is None and not _FOR_GOOD.match(clause[match.end():])
                and _TASK_TALK.match(clause[match.end():].rstrip(" .!;:") + ". " + following)):
            continue  # "Forget rhyming. Write me a poem": the next sentence is the task (not "Can you delete it?")
        verb = (match.group("verb") or match.group("verb2") or "").lower()
        obj = clause[match.end():]
        enumerated = _THE_FOLLOWING.match(obj)
        if enumerated:
            # "Please delete the following from memory: 1) my phone number …, 2) my email …"
            obj = " ".join(_ENUMERATOR.sub(" ", enumerated.group("items")).split())
        before = clause[: match.start()].strip(" ,;:—–-")
        # "wipe both pls", "forgt both, my mom reads over my shoulder": a count that points back
        target = "both" if _COUNT_PRONOUN.match(obj) else clean_target(obj)
        fronted = re.split(_LEAD_IN, before)[-1] if before else ""
        if (target.lower() in ("him", "her") and fronted != before and clause[: match.start()].rstrip().endswith(",")
                and re.match(r"^(?:the|my|our|that)\s+(?:[\w'’-]+\s*){1,5}$", fronted, re.I)):
            # "the head chef is Sébastien Orsini now, and the old one, you can drop him": the
            # person said first is the one dropped
            obj, target, before = fronted, clean_target(fronted), before[: len(before) - len(fronted)].rstrip(" ,")
        if (before and clause[: match.start()].rstrip().endswith(",")
                and re.match(r"^\s*(?:all\s+(?:of\s+)?)?(?:that|it|this)\s*,\s+(?:the|his|her|my|their)\s", obj, re.I)):
            # "the first dentist I told you about, please forget all that, the man and the
            # practice both": the pronoun points at what was said first; the list after it
            # only spells out what that was
            obj = "all that"
            target = clean_target(obj)
        category_like = _CATEGORY_OBJECT.match(re.sub(r"^(?:about\s+|of\s+)", "", obj.strip(), flags=re.I))
        # ("all of it except the engineer's number": a pronoun, with what it keeps)
        pronoun = not _names_something(before_exception(target)) or _MEMORY_PLACE.fullmatch(target.strip()) is not None or (
            category_like is not None and not _names_something(clean_target(category_like.group("desc")))
        ) or _ONLY_THE_TELLING.fullmatch(target.strip(" ?.!")) is not None
        # ("can you remove from memory?" points back like "remove it"; so does "forget I ever
        # told you", of what the message named before it)
        if not pronoun and target.lower() in ("him", "her") and i > 0 and not _names_a_person(text):
            # "that girl from chem i kept talking to u about … act like i never told u about
            # her": no name in the message, so "her" points back at the person described
            pronoun = True
        if pronoun and JUST_SAID.search(obj):
            pronoun = False  # "what I just told you": the last thing the user said (resolve.py)
        # "the Kestrel budget figure is confidential … remove that number": a demonstrative
        # with a generic noun points back like a pronoun, when something before it is named
        demonstrative = not pronoun and _DEMONSTRATIVE_GENERIC.match(obj) is not None
        pronoun = pronoun or demonstrative
        named_before = _DEMONSTRATIVE_NOUN.match(obj)
        if not pronoun and named_before:
            # "We've cancelled the Lisbon hotel … could you delete that hotel": the noun phrase
            # said before with the same noun is the one meant
            noun = named_before.group("noun")
            earlier = [before, *(clauses[j][0] for j in range(i - 1, -1, -1))]
            for piece in earlier:
                found = [m.group(0) for m in re.finditer(
                    rf"\b(?:the|my|our)\s+(?:[\w'’-]+\s+){{0,3}}?{re.escape(noun)}s?\b", piece or "", re.I)]
                if found:
                    obj = found[-1]
                    target = clean_target(obj)
                    break
        if pronoun and not re.search(r"\b(?:old|previous|former)\b", target, re.I):
            # "delete it": the thing was named earlier in this turn (or before the verb)
            antecedent = _antecedent(before) if before else None
            colon_list = re.match(r"^\s*(?:(?:all|any|each)\s+of\s+)?(?:it|that|this|them|those|these)\b[^:]{0,20}:\s*(?P<items>[^.!?]+)",
                                  obj, re.I)
            if colon_list:
                # "forget all of that, please: the diagnosis, the tablets, the hospital": the list
                # after the colon is what "that" was
                after_colon = re.sub(r",?\s*(?:and\s+)?(?:every\s+bit|all|each)\s+of\s+(?:it|them)\s*$", "",
                                     colon_list.group("items").strip())
                if len(split_targets(clean_target(after_colon))) >= 2:
                    antecedent = after_colon
            count_of = re.match(r"^(?:(?:so|and|also|ok(?:ay)?|well|right|but)\s+)*(?P<items>(?:the|my|that|this|our)\b.*?"
                               r"\s+and\s+.+?)\W*$", re.split(r",\s+", before or "")[-1], re.I) if target == "both" else None
            if count_of and clause[: match.start()].rstrip().endswith((",", ":", "—", "–")):
                # "so that scan result and what I told you I owe the tax man, can you forget
                # both of those": the two things said before the count, not what the last was told
                antecedent = count_of.group("items")
            if antecedent is None:
                # "That question about loans doesn't mean I'm in debt. Erase that conclusion.":
                # the trait the user disputes is the conclusion meant; a bare "drop it" points
                # at one only when the user says it is the assistant's view ("You've been
                # talking to me as if I'm going through a breakup. I'm not. Let go of that.")
                # — "I'm not going to the party, forget it" disputes nothing the assistant made
                named_conclusion = _CONCLUSION_NOUN.search(target) is not None
                for piece in [before, *(clauses[j][0] for j in range(i - 1, -1, -1))]:
                    disputed = _DISPUTED.search(piece or "")
                    if disputed and (named_conclusion or _A_VIEW.match(disputed.group(0))):
                        being = "I have" if disputed.group("have") else "I'm"
                        antecedent = f"the conclusion that {being} {disputed.group('trait').strip()}"
                        break
            if antecedent is None and clause.rstrip().endswith(":"):
                # "pls don't keep these anymore:" then "- the prescription …", "- what I take …"
                items = []
                for j in range(i + 1, len(clauses)):
                    item = BULLET.sub("", clauses[j][0]).strip(" .;")
                    # (a bulleted line names a thing however it starts: "• dad's score from the clinic")
                    if clauses[j][1] is not None or not (_PART_START.match(item) or (
                            BULLET.match(clauses[j][0]) and _LIST_ITEM.match(item))):
                        break  # the list ends where a clause stops naming a thing
                    # ("the preventive my GP started me on (NOT the triptan, keep that one)": the
                    # bracket keeps something, which is no part of the item)
                    kept_aside = _BRACKETED_EXCEPTION.search(item)
                    if kept_aside:
                        asides.append(kept_aside.group(0).strip(" ()"))
                        item = (item[: kept_aside.start()] + item[kept_aside.end():]).strip()
                    items.append(item)
                    consumed.add(j)
                if items:
                    antecedent = " and ".join(items)
                    if len(items) >= 2:  # each line is an item, however its words would split
                        bulleted[clean_target(antecedent)] = [clean_target(item) for item in items]
            if antecedent is None and before and (
                clause[: match.start()].rstrip().endswith((":", "—", "–", " -"))
                or (clause[: match.start()].rstrip().endswith(",")
                    and re.match(r"^(?:(?:basically|honestly|so|ok(?:ay)?|and|also|well|right|abeg),?\s+)*"
                                 r"(?:the|my|that|those|this|these|our|his|her|their|everything|anything|all|what|"
                                 r"whatever\s+i\s+(?:said|told\s+you|wrote|shared|typed)|"
                                 # "Whatever conclusion you came to from all that, drop it"
                                 r"whatever(?:\s+[a-z]+)?\s+(?:you|u)\s+(?:came|come|drew|draw|made|make|have|had|got|"
                                 r"worked|figured|put|concluded|inferred|assumed|noted|kept|stored))\b",
                                 re.split(_LEAD_IN, re.split(r":\s+", before)[-1])[-1], re.I))
            ):
                # "My school pickup and the parking detail: wipe those" — the list comes first;
                # a hedge before it ("This might be silly, but the nickname …: wipe those") is not,
                # nor is the news that leads up to it ("… written up by a lawyer this time, so all
                # that custody stuff I've told you, the days, the money, … can you wipe all of it")
                # ("so do me a favor: his name and the whole story …, I don't want that in your memory")
                listed = re.split(_LEAD_IN, re.split(r",?\s+but\s+|:\s+", before, flags=re.I)[-1])[-1]
                antecedent = re.sub(r"^(?:(?:ok(?:ay)?|so|and|also|one\s+more\s+thing|basically|honestly|well|right|abeg)"
                                    r"\W+)+(?:but\s+)?", "", listed, flags=re.I).strip() or None
            source = -1
            told_in = before if before and _TOLD.search(before) else ""
            if antecedent is None and i > 0 and clauses[i - 1][1] is None and (i - 1) not in consumed:
                # "… I went on about stuff. That whole conversation. I want you to forget it":
                # a sentence that is only a referent is what "it" means, before anything older
                at = i - 1
                previous = clauses[at][0].strip(" .,;:—–-")
                if (_COUNT_PRONOUN.match(previous) and previous.count(" ") <= 4 and at > 0 and clauses[at - 1][1] is None
                        and (at - 1) not in consumed):
                    # "What we settled on an acre and the interest I'm charging him. Those two.
                    # Forget them.": the count points at the sentence before it
                    consumed.add(at)
                    at -= 1
                    previous = clauses[at][0].strip(" .,;:—–-")
                    target = "both"
                    if len(split_targets(clean_target(previous))) >= 2 or " and " in previous:
                        counted_back.add(clean_target(previous))
                cued = _antecedent(previous) is not None  # the loop below reads it by its cue
                # "Router password, alarm code. Clear both.": two bare items a count points at
                pair = previous.split(", ")
                bare_pair = target == "both" and len(pair) == 2 and all(
                    1 <= len(p.split()) <= 4 and not _NOT_A_THING.search(p) for p in pair)
                if bare_pair and not cued:
                    pairs.add(previous)
                if _SPEECH_OBJECT.match(previous) and _BARE_REFERENT.match(previous):
                    antecedent, source, told_in = previous, at, previous
                elif not cued and (bare_pair or (len(parts := split_targets(previous)) >= 2 and (all(
                        _PART_START.match(p) for p in parts) or ("," in previous and _is_bare_list(parts))))):
                    # "The amount, the rate, the man at the bank. I don't want all that kept"
                    antecedent, source = previous, at
                elif not cued and _dash_follows(text, clauses[at][0]):
                    # "Passport number, national insurance number, driver's licence — erase all
                    # of them"; "Everything about my health — forget it"; "I haven't told
                    # anyone, so the pregnancy thing — act like I never said it"
                    tail = re.split(r",\s+(?:(?:so|and|but|plus)\s+)?(?=(?:the|my|our|that|this)\b)", previous,
                                    flags=re.I)[-1]
                    if _APPOSITIVE_RELATIVE.fullmatch(tail) or _APPOSITIVE_ONE.fullmatch(tail):
                        tail = previous  # ("The grade from February, the one on the website": one thing)
                    # the nearer noun phrase first; a count ("all three") takes the whole list
                    # after the lead-in ("bit of cleanup: the company …, the hiring manager's name, and …")
                    nearest = (re.split(r":\s+", previous)[-1], previous) if target == "both" else (tail, previous)
                    for named in dict.fromkeys(nearest):
                        # (an item that asks which value is a thing too: "the money, how much it was")
                        unasked = re.sub(r"(?:^|,\s*)(?:how|what|where|when|who)\b[^,]*", "", named, flags=re.I)
                        if ((_LIST_ITEM.match(named) or _QUANTIFIED.match(named))
                                and not _NOT_A_THING.search(unasked) and not _CHAT_THING.match(named)):
                            antecedent, source = named, at
                            if target == "both":
                                counted_back.add(clean_target(named))
                            break
            if antecedent is None:
                for j in range(i - 1, -1, -1):
                    if clauses[j][1] is None and j not in consumed:
                        antecedent = _antecedent(clauses[j][0])
                        if antecedent:
                            source = j
                            told_in = clauses[j][0] if _TOLD.search(clauses[j][0]) else ""
                            break
            if antecedent is None and i > 0 and clauses[i - 1][1] is None and (i - 1) not in consumed:
                # "That second tablet on my list — kindly don't keep that one"; "that whole
                # conversation. I want you to forget it, all of it."
                previous = clauses[i - 1][0].strip(" .,;:—–-")
                if _BARE_REFERENT.match(previous) or _SPEECH_OBJECT.match(previous):
                    antecedent, source = previous, i - 1
                    told_in = previous if _SPEECH_OBJECT.match(previous) else told_in
            if antecedent is not None and told_in:
                # "what I told you after that Thursday shift … don't keep any of that": what
                # was said then, so a time reference in it names a window (F5) — unless the
                # sentence also names the items ("…, the figure on my card and …")
                spoken[antecedent] = told_in
            if antecedent is None:
                # "Wait, what I just told you — can you not hold on to that?"
                for j in [i, *range(i - 1, -1, -1)][:2]:
                    said = JUST_SAID.search(before if j == i else clauses[j][0])
                    if said and (j == i or clauses[j][1] is None):
                        antecedent = "what I just told you"
                        if j != i:
                            consumed.add(j)
                        break
            meant = _I_MEAN.match(clauses[i + 1][0]) if antecedent is None and i + 1 < len(clauses) else None
            if meant and clauses[i + 1][1] is None:
                # "delete it. the amount i mean.": the thing named right after the pronoun, of
                # what the sentence before spoke about ("Ma phoned about the bail money again")
                antecedent = meant.group("x") or meant.group("y")
                about = [m.group(1) for j in range(i - 1, -1, -1) if clauses[j][1] is None
                         for m in [re.search(r"\babout\s+((?:the|my|our|his|her)\s+(?:[\w'’-]+\s+){0,2}[\w'’-]+)", clauses[j][0], re.I)]
                         if m][:1]
                if about:
                    antecedent = f"{antecedent} of " + re.sub(r"\s+(?:again|too|now|today|yesterday|lately)$", "", about[0])
                consumed.add(i + 1)
            if antecedent is None and known is not None and not demonstrative and not directives:
                # "she told me I should never put my PPS number in any chat … Please delete it":
                # the nearest thing of the user's this message named, when memory holds it; then
                # the nearest thing named at all ("I cancelled that second PNR I gave you, so
                # remove it"; "I shouldn't keep the key safe number anywhere. Get rid of it?")
                for j in [i, *range(i - 1, -1, -1)]:
                    if j != i and (clauses[j][1] is not None or j in consumed):
                        continue
                    piece = before if j == i else clauses[j][0]
                    # (not the subject of a modal: "only the carers should have it" names who may)
                    named = sorted((m.start(), m.group(0).strip()) for pattern in (_MY_THING_SAID, _THING_SAID)
                                   for m in pattern.finditer(piece) if not _MODAL_NEXT.match(piece, m.end()))
                    held = [np for _, np in reversed(named) if known(np)]
                    if held:
                        antecedent, source = held[0], (j if j != i else -1)
                        break
            if antecedent is None and _ONLY_THE_TELLING.fullmatch(target.strip(" ?.!")):
                # "I was drunk. Forget I said that.": nothing named, so what was just said
                antecedent = "what I just told you"
            if antecedent is None and (demonstrative or _CONCLUSION_NOUN.search(target)):
                pass  # "that number", "that guess" with nothing named before it: the phrase as said
            elif antecedent is None and not _SPEECH_OBJECT.match(obj.strip()):
                if directives:
                    continue  # "... of it" reinforcing an earlier directive of this turn
                continue  # "forget it" with nothing named: a dismissal, not a request
            if antecedent is not None:
                told_of = clauses[source][0] if source >= 0 else (before or "")
                # "All the things I told you about my health — the toe, the pills … So delete all
                # of it": what was pointed back at is all of an area, not the one fact "my health"
                all_of = re.search(r"\b(?:all|everything|anything|whatever)\b(?:\s+(?:of\s+)?the)?(?:\s+(?:things?|stuff|bits?))?"
                                   r"(?:\s+(?:that\s+)?i(?:'ve|’ve|\s+have)?)?\s+(?:told\s+you|said|shared|mentioned|wrote)\s+"
                                   r"(?:to\s+you\s+)?(?:about|regarding|on)\s+" + re.escape(antecedent), told_of, re.I)
                if source >= 0:
                    consumed.add(source)
                before = ""
                if category_like is not None or all_of is not None or (
                        "," not in antecedent and _AFFAIR.search(antecedent) is not None):
                    # ("I'm so over this insurance saga. wipe all of it": the whole affair)
                    obj = f"everything about {antecedent}"
                else:
                    obj = antecedent
                    if target == "both":  # "that scan result and the tax debt, can you forget both"
                        counted_back.add(clean_target(obj))
        elif (i + 1 < len(clauses) and clauses[i + 1][1] is None and (i + 1) not in consumed
              and not (category_like or _QUANTIFIED.match(re.sub(r"^(?:about|of)\s+", "", obj.strip(), flags=re.I)))):
            # (not after all of an area: "everything you've got about Maddie's treatment — what
            # she was diagnosed with, the place, …" spells out the area, which stays one request)
            # "the particulars I copied out of his papers — his insurance number, the number
            # the Fund knows him by, and his birthday?": the list after a dash spells out what
            # the object meant
            listed = clauses[i + 1][0].strip(" .?!;")
            parts = split_targets(clean_target(listed)) if _dash_follows(text, clause) else []
            if len(parts) >= 2 and all(_LIST_ITEM.match(p) for p in parts):
                obj = listed
                consumed.add(i + 1)
        if before and len(token_set(before)) >= 2 and not re.fullmatch(
            r"(?:please|ok(?:ay)?|also|and|so|update|actually|one more thing|by the way)\W*", before, re.I
        ):
            statements.append(before)
        directives.append((clause, verb, obj))
    if not directives:
        return None
    statements = [c for i, (c, m) in enumerate(clauses) if m is None and i not in consumed] + statements + asides

    objects = [d[2].strip() for d in directives]
    directive_texts = [d[0] for d in directives]

    # F5: speech inside a time window (the time may be named in another clause)
    for _directive, _verb, obj in directives:
        if (_ALL_OF_A_TIME.match(obj) and not _ABOUT_A_TOPIC.search(obj)
                and (parse_time_reference(obj, _ANY_DAY) is not None or _AFTER_AN_EVENT.search(obj))):
            # "everything since Monday", "the stuff from the past week": all of a time
            return ForgetIntent(ForgetKind.TIME_WINDOW, targets=[clean_target(obj)], time_phrase=obj,
                                statements=statements, directives=directive_texts)
        if (_ALL_OF_A_TIME.match(obj) or _SPEECH_OBJECT.match(obj.strip())) and _THAT_TIME.search(obj):
            # "that night NEPA took light … whatever I told you that night, forget it", "About
            # what I wrote the night before the rehearsal … delete everything from that
            # conversation": the window is the one the message told of before pointing at it
            at = text.find(_directive)
            told = [s for s in statements if 0 <= text.find(s) <= at and (
                _THAT_TIME.search(s) or _AFTER_AN_EVENT.search(s) or parse_time_reference(s, _ANY_DAY))]
            # (a sentence before the directive's first; else its own, before its verb: "that night
            # I wrote you at like 3am …, can you just pretend that whole conversation never happened?")
            told_then = [s for s in told if text.find(s) < at] or told
            if told_then:
                phrase = max(told_then, key=text.find)
                return ForgetIntent(ForgetKind.TIME_WINDOW, targets=[clean_target(obj)], time_phrase=phrase,
                                    statements=[s for s in statements if s != phrase],
                                    directives=[*directive_texts, phrase])
        if obj in spoken and _SAID_NOTHING_NAMED.fullmatch(obj.strip(" .,!?")) and (
                named_time := parse_time_reference(spoken[obj], _ANY_DAY)) is not None and named_time.sessions_back is None:
            # "Saturday night after the party I wrote you many things — please delete all of
            # that": what was said then, with nothing named, is the window
            return ForgetIntent(ForgetKind.TIME_WINDOW, targets=[clean_target(obj)], time_phrase=spoken[obj],
                                statements=statements, directives=directive_texts)
        if obj in spoken and _SPEECH_OBJECT.match(spoken[obj].strip()) and _AFTER_AN_EVENT.match(obj):
            # "Whatever I told you that day, the Sunday after the sale, … forget all of it"
            return ForgetIntent(ForgetKind.TIME_WINDOW, targets=[clean_target(obj)], time_phrase=obj,
                                statements=statements, directives=directive_texts)
        if not (_SPEECH.search(obj) or obj in spoken) or _NAMES_ITEMS.search(spoken.get(obj, obj)):
            continue  # "the thing I told you last week about my pension": a fact, not a window
        if parse_time_reference(obj, _ANY_DAY) is not None:
            return ForgetIntent(ForgetKind.TIME_WINDOW, targets=[clean_target(obj)], time_phrase=obj,
                                statements=statements, directives=directive_texts)
        if (_CONVERSATION_NAMED.search(obj) and _OCCASION.search(obj)) or (
                _SPEECH_OBJECT.match(obj.strip()) and _AFTER_AN_EVENT.search(obj)):
            # (and "whatever I said after the funeral": what was said in the time after it)
            # "our chat the night of the party", "the conversation from the night of the power
            # cut": a conversation named by what happened then (resolve finds that session)
            return ForgetIntent(ForgetKind.TIME_WINDOW, targets=[clean_target(obj)], time_phrase=obj,
                                statements=statements, directives=directive_texts)
        if _SPEECH_OBJECT.match(obj.strip()) and parse_time_reference(text, _ANY_DAY) is not None:
            time_clauses = [s for s in statements if parse_time_reference(s, _ANY_DAY)]
            # the time said nearest before the request is the one it points back to ("we ate
            # at the table tonight … remember that night I was up with her, the friday …
            # that whole conversation, forget it"), not the first in the message
            at = text.find(_directive)
            before_it = [s for s in time_clauses if 0 <= text.find(s) < at]
            phrase = max(before_it, key=text.find) if before_it else text
            return ForgetIntent(ForgetKind.TIME_WINDOW, targets=[clean_target(obj)], time_phrase=phrase,
                                statements=[s for s in statements if s not in time_clauses],
                                directives=directive_texts + time_clauses)

    # F5 by topic: "our conversation on my first knitting project", "whatever I shared back
    # when we were discussing the pantry staples": the conversation that was about it
    for _directive, _verb, obj in directives:
        topic = conversation_topic(obj)
        if topic:
            return ForgetIntent(ForgetKind.TIME_WINDOW, targets=[clean_target(obj)], time_phrase=topic,
                                statements=statements, directives=directive_texts)

    # F4: a conclusion / inference
    if any(_CONCLUSION.search(d[1]) or _CONCLUSION.search(d[0]) or d[2].startswith("the conclusion that ")
           for d in directives) or any(
        _CONCLUSION.search(c) for i, (c, _m) in enumerate(clauses) if i in consumed
    ):
        targets = [clean_target(o) for o in objects]
        return ForgetIntent(ForgetKind.CONCLUSION, targets=[t for t in targets if t],
                            statements=statements, directives=directive_texts)

    # F3: "everything about <a category>"
    cleaned = [clean_target(o) for o in objects]
    for obj in objects:
        stripped = re.sub(r"^(?:about\s+|of\s+|(?:out|away|off|up)\s+(?=(?:everything|anything|all|whatever|every|any)\b))",
                          "", obj.strip(), flags=re.I)
        m = _CATEGORY_OBJECT.match(stripped) or _STUFF.match(clean_target(stripped))
        if m or _QUANTIFIED.match(stripped):
            desc = clean_target(m.group("desc")) if m else clean_target(stripped)
            cats = categories_in(before_exception(desc))
            if cats or (m and m.re is _CATEGORY_OBJECT) or _RELATED_AREA.match(stripped):
                # ("everything legal related, the lawyer stuff, the hearings": an area, its examples after it)
                return ForgetIntent(ForgetKind.CATEGORY, targets=[desc], categories=cats,
                                    statements=statements, directives=directive_texts)
        # "any of my financial details", "all my political views": a quantified area (not "my
        # bank details", one fact)
        m = _QUANTIFIED_AREA.match(before_exception(stripped))
        cats = categories_in(m.group("desc")) if m else []
        if m and cats:
            return ForgetIntent(ForgetKind.CATEGORY, targets=[clean_target(stripped)], categories=cats,
                                statements=statements, directives=directive_texts)

    # "the bits about my calendar": a short description of an area (not "the stuff about which
    # car I own and the instrument I play", which lists facts)
    for obj in objects:
        m = _BITS_ABOUT.match(re.sub(r"^(?:about|of)\s+", "", before_exception(obj).strip(), flags=re.I))
        cats = categories_in(m.group("desc")) if m else []
        if m and cats:
            return ForgetIntent(ForgetKind.CATEGORY, targets=[m.group("desc")], categories=cats,
                                statements=statements, directives=directive_texts)

    # F3 by its exception: "forget my gadgets and online accounts, except my GitHub username",
    # "… the holiday and flight plans. The only thing worth keeping is the airline": what is
    # removed is a set the user carves one thing out of, so a category it names is meant whole
    excepted = any(_EXCEPT_TAIL.search(d[0]) for d in directives) or any(_ONLY_KEEP.search(st) for st in statements)
    if excepted:
        for obj in objects:
            desc = clean_target(before_exception(obj))
            cats = categories_in(desc) if desc and not _NAMED_VALUE.search(desc) and _ENDS_IN_PLURAL.search(desc) else []
            if cats:
                return ForgetIntent(ForgetKind.CATEGORY, targets=[desc], categories=cats,
                                    statements=statements, directives=directive_texts)

    # F6: the turn states a change (a new value) beside the removal
    change_statements = [s for s in statements if _CHANGE.search(s)]
    change_in_directive = any(_CHANGE.search(d[0][: max(0, d[0].lower().find(d[1]))] or "") for d in directives) or any(
        # "erase the old answer for my transit pass and use Urbana card instead"
        re.search(r"\b(?:old|previous|earlier|former)\b", d[2], re.I) and _CHANGE.search(d[0]) for d in directives)
    if all(t.strip().lower() in ("him", "her") for t in objects) or all(
            re.fullmatch(r"(?:that|this|the)\s+(?:girl|boy|guy|man|woman|person|lady)\b.*", t.strip(), re.I) for t in objects):
        # "… she's dating some senior now … forget her": a person to forget, not a value of
        # theirs that changed
        change_statements = [s for s in change_statements if not re.search(r"\b(?:she|he|shes|hes)\b", s, re.I)]
    changed = bool(change_statements or change_in_directive)
    # ("replace Whitfield and forget Whitfield": one thing named twice)
    replacement = ForgetIntent(ForgetKind.REPLACEMENT, targets=[
        once[0] if len(once := split_targets(t)) == 1 else t for t in cleaned if t], statements=statements,
                               directives=directive_texts)
    if changed and states_new_value(statements, directive_texts, replacement.targets):
        return replacement

    # F2 / F1
    targets = []
    for target in cleaned:
        parts = split_targets(target)
        if target in bulleted:
            parts = bulleted[target]
        elif len(parts) == 1 and target in pairs:
            parts = [p.strip() for p in target.split(", ")]
        elif len(parts) == 1 and target in counted_back:
            parts = [p for p in (p.strip() for p in re.split(r",\s*(?:and\s+)?|\s+and\s+", target)) if p] or parts
        targets.extend(parts)
    # pronoun-only objects ("any record of it") name nothing new: keep the named ones
    named = [t for t in targets if t and _names_something(t)]
    if changed and not named:
        return replacement  # "scrap the old one": the change statement says which
    if named and all(_ONLY_THE_OLD.match(t) for t in named) and statements:
        from bemula.systems.erasemem.oldvalue import value_stated

        if value_stated(statements, _CHANGE):
            # "Octopus Energy these days, so drop the previous one": a value beside a request
            # for "the old one" is the one that replaces it, however it was introduced
            return replacement
    targets = named or [t for t in targets if t]
    if not targets:
        return None
    # "both of my kids' birthdays", "the two addresses I gave you": more than one fact, named once
    counted = any(_COUNTED.match(o.strip()) for o in objects)
    kind = ForgetKind.FACTS if len(targets) >= 2 or counted else ForgetKind.FACT
    return ForgetIntent(kind, targets=targets, statements=statements, directives=directive_texts)


_CONVERSATION = r"(?:chat|chats|conversation|conversations|talk|discussion|session|exchange)"
_DISCUSSING = (r"(?:discuss\w*|talk\w*\s+about|chatt\w*\s+about|went\s+over|go(?:ing)?\s+over|got\s+into|"
               r"getting\s+into|work\w*\s+on|figur\w*\s+out|sort\w*\s+out)")
#: a conversation named by what it was about
_TOPIC_WINDOW = (
    re.compile(r"^\W*(?:(?:all\s+of\s+)?(?:our|the|that|this)\s+)" + _CONVERSATION + r"\s+(?:we\s+had\s+)?"
               r"(?:on|about|regarding|around|over|where\s+we\s+" + _DISCUSSING + r"|when\s+we\s+(?:were\s+)?"
               + _DISCUSSING + r")\s+(?P<topic>.+)$", re.I),
    re.compile(r"^\W*(?:whatever|everything|anything|all|what)\s+(?:(?:that\s+)?i|we)\s+(?:shared|said|told\s+you|"
               r"mentioned|discussed|talked\s+about|wrote)\s+(?:back\s+)?(?:when|while|during|in|the\s+time)\s+"
               r"(?:we\s+were\s+|you\s+were\s+helping\s+me\s+with\s+|our\s+" + _CONVERSATION
               + r"\s+(?:on|about)\s+)?(?:" + _DISCUSSING + r"\s+)?(?P<topic>.+)$", re.I),
    re.compile(r"^\W*(?:everything|anything|whatever|all)\s+(?:that\s+)?came\s+up\s+(?:around|during|while|when|in)\s+"
               r"(?:we\s+were\s+)?(?:" + _DISCUSSING + r"\s+)?(?P<topic>.+)$", re.I),
)


def conversation_topic(obj: str) -> str | None:
    """What a conversation was about, when a request names it that way ("our chat on
    getting started with stargazing" -> "getting started with stargazing")."""
    text = obj.strip(" ,.;:!?")
    for pattern in _TOPIC_WINDOW:
        m = pattern.match(text)
        if m and len(m.group("topic").split()) >= 2:
            topic = re.split(r"[,;]|\s+(?:please|if\s+you|it\s+was|i\s+said|i\s+shared)\b", m.group("topic"))[0]
            return topic.strip(" ,.;:!?") or None
    return None


#: a target that names only "the old one" ("the previous one", "the earlier number")
_ONLY_THE_OLD = re.compile(
    r"^\s*(?:the|my|that|your)?\s*(?:old|previous|former|earlier|outdated|last)\s+(?:one|ones|value|version|answer|"
    r"info|information|detail|details|entry|figure|number|name|address|date|it)?\s*$", re.I)


#: heads of a target whose value is written in digits: "her number", "the eMax acc numbr"
_NUMBER_HEADS = frozenset(token_set("number numbr num code pin"))


def states_new_value(statements: list[str], directives: list[str], targets: list[str] | None = None) -> bool:
    """An F6 request names the value that replaces the old one ("I switched to oat milk");
    a change cue alone ("from now on a broker handles it, so erase the policy number") makes
    it a plain removal, whose target is what the directive names. So does a new value of
    another kind than the target's: "ailsa's moved to aviemore … forget her number" — a
    number is not replaced by a town."""
    from bemula.systems.erasemem.resolve import head_of, new_value_of

    value = new_value_of(statements, set()) or new_value_of(directives, set())
    if value is None:
        return False
    heads = {head for target in targets or [] if (head := head_of(target))}
    numbered = bool(heads) and all(token_set(head) & _NUMBER_HEADS for head in heads)
    return not (numbered and not any(re.search(r"\d", text) for text in [value, *statements, *directives]))
