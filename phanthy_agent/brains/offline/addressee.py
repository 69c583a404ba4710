"""Who an utterance is said to: the robot, or someone else near it.

Visitors talk among themselves next to the robot ("Mum, I'm starving", "did you lock the car?",
"meet you at the gift shop in ten"), on the phone, on the staff radio; none of it is a request,
whatever place or tour it names. And a visitor may turn to the robot after talking to someone
else ("Grandma, it's cancel, not change! Robot, cancel the booking under Doreen Pike"): what
follows the address is the request. Pure: no ROS, no model."""

from __future__ import annotations

import re

from .codes import find_codes
from .among_visitors import TO_SOMEONE_ELSE
from .wording import QUESTION

CLAUSE_END = re.compile(r"[.!?;,]+\s*")  # where a clause ends, for an act said before small talk


# the robot asked first thing ("can you take us to the dinosaur hall, he's been going on about it",
# "take me to the toilets, hurry up"): what follows about someone else is the reason, not talk to them
ASKS_FIRST = re.compile(r"^\W*(?:(?:hey|hi|hello|excuse\s+me|sorry|um|uh|er|so|ok|okay|robot|please)\W+)*"
                        r"(?:(?:can|could|would|will)\s+(?:you|u)|(?:can|could|may)\s+(?:i|we)|"
                        r"(?:take|bring|show|lead|walk|guide|escort|get)\s+(?:me|us)\s+(?:to|round|around)\b)\b(?!\s+(?:believe|hear\s+me)\b)", re.I)


# a request of the visitor's own in a later clause ("..., anyway I'd like to book the space tour at one")
WANTS_LATER = re.compile(r"^\W*(?:(?:so|anyway|and|but|well|right|now|then)\W+)*(?:i|we)(?:'d|\s+would)\s+(?:like|love)\s+to\s+"
                         r"(?:book|cancel|change|move|go|get|see|check|find)\b", re.I)


def said_to_someone_else(text: str) -> bool:
    """Talk among the visitors (TO_SOMEONE_ELSE), unless the robot was asked first and that talk
    comes in a later clause."""
    said = TO_SOMEONE_ELSE.search(text)
    if said is None:
        return False
    first = CLAUSE_END.search(text)
    if ASKS_FIRST.search(text) and first is not None and said.start() >= first.end():
        return False
    # a booking named by its code before a dash, the talk to someone after it ("Please cancel
    # booking R1P7C4, Delgado — no, darling, we're not going on it any more")
    dash = re.search(r"\s*[\u2014\u2013]\s*", text)
    if dash is not None and said.start() >= dash.end() and find_codes(text[:dash.start()]):
        return False
    # a question put to the robot first, the talk about the others after it ("How do I get on the
    # wi-fi? He's been trying for ten minutes"): the reason, not talk to them
    asked = text.find("?")
    if 0 < asked < said.start() and len(text[:asked].split()) >= 3 and len(text[asked + 1:].split()) >= 2 and \
            not TO_SOMEONE_ELSE.search(text[:asked + 1]) and asked_as_a_question(text[:asked]) and \
            not re.search(r"\bhear\s+me\b", text[:asked], re.I):  # a call: "Can you hear me? I'm in the ..."
        return False  # not "the booking? your brother has the code on his phone", "are you at the entrance? Over."
    # ... or asked in a later clause after talk about someone ("My husband made the reservation and
    # he's still parking the car, can you look it up?"); not when someone was spoken to first
    later = re.split(r"[,.;!?\u2014\u2013]+\s*", text[said.end():])[1:]  # "she wants the T. rex — can you ..."
    if said.start() > 0 and any(ASKS_FIRST.search(clause) or WANTS_LATER.search(clause) for clause in later):
        return False
    # ... or asked in a sentence of its own after talk about someone ("He says he wants to see the
    # astronauts now. Can you take us to the space gallery?"); not when someone was spoken to first
    last = re.split(r"(?<=[.!?])\s+|\s*[\u2014\u2013]\s*", text.strip())[-1]
    return not (said.start() > 0 and last != text.strip() and ASKS_FIRST.search(last)
                and said.end() <= len(text.strip()) - len(last))


# what follows a greeting, thanks, goodbye or stop asks for something ("thanks, is the bank open",
# "bye, where's the station", "hello, I need the toilets"), unlike news ("our bus is here")
ASKS_SOMETHING = re.compile(r"\?|\b(?:can|could|would|will|may)\s+(?:you|u|i|we)\b|^\W*(?:(?:and|so|but|um|erm|oh)\W+)*"
                            r"(?:what|when|where|which|who|why|how|is|are|do|does|did|have|has|take|show|tell|bring|"
                            r"walk|lead|give|book|find|get|help|please|i\s+(?:need|want|would|'d)|we\s+(?:need|want|would|'d))\b",
                            re.I)


def before_the_remark(text: str) -> str:
    """The question put to the robot first when what follows only remarks on it ("What's on the
    menu in the cafe? He's been going on about cake for an hour"); "" when there is no such
    question (at least three words: "Hello? Yes, we're at the museum" is a call), or the rest asks
    something too or reads out a code."""
    found = re.match(r"\s*([^?]+\?)\s+(\S.*)$", text, re.S)
    if found is None or len(found.group(1).split()) < 3 or len(found.group(2).split()) < 2:
        return ""  # not a call ("Hello? Yes, ..."), a radio's "... yet? Over."
    question, rest = found.groups()
    if "?" in rest or ASKS_SOMETHING.search(rest) or TO_SOMEONE_ELSE.search(question) or find_codes(rest):
        return ""
    # said as a question ("What's on ...?"), not an echo ("The tickets were how much? Blimey, ...")
    return question if asked_as_a_question(question[:-1]) else ""


def asked_as_a_question(text: str) -> bool:
    """Whether one of the text's clauses is worded as a question ("I've lost my scarf - is there a
    lost property"), not an echo ("The tickets were how much")."""
    return any(ASKS_SOMETHING.search(part) or QUESTION.search(part) or re.match(r"\W*any(?:thing|where|one|body)?\b", part, re.I)
               for part in re.split(r"[,;:\u2014\u2013]+|\s-\s", text))


# the robot addressed after a sentence said to someone else ("Nana, say the name slowly. Robot,
# it's for Rosalind Achebe", "No, TOILETS. Excuse me, robot, where are the toilets?")
TURNED_TO_ROBOT = re.compile(r"(?:[.!?]+\s+|\s*[\u2014\u2013]\s*)(?:(?:ok(?:ay)?|so|now|oh|right|excuse\s+me|sorry|hey|um|please)\W+)*"
                             r"(?:mister\s+|mr\.?\s+)?robot\s*[,!:.]\s*(?=\w)", re.I)

REFERS_BACK = re.compile(r"\b(?:do|sort|arrange|manage|handle|book)\s+(?:that|this|it)\b", re.I)


def turned_to_robot(text: str) -> str:
    """What the visitor asks the robot after turning to it from someone else (TURNED_TO_ROBOT),
    with the codes read out before it ("Grandma, read the code out: Z W 5 5 8 0. Robot, can you
    see our booking?"); "" when the robot is not turned to in a later sentence."""
    found = None
    for found in TURNED_TO_ROBOT.finditer(text):
        pass
    if found is None:
        return ""
    rest = text[found.end():]
    if REFERS_BACK.search(rest):
        return ""  # "Get us on the four o'clock tour, love — robot, can you do that for us?"
    if find_codes(rest):
        return rest
    codes = [c for c in find_codes(text[:found.start() + 1]) if any(ch.isdigit() for ch in c.text)]
    return " ".join([rest] + [f"{c.text}." for c in codes])


# the robot dared or doubted before the request ("Let's test you. Six tickets please.", "I'm
# sceptical, but: look up member ...", "My wife doesn't believe you can do this. Prove her wrong:
# the space tour at noon", "I bet you'll get lost halfway, but take me to the space gallery")
DOUBT_FIRST = re.compile(
    r"^\W*(?:(?:right|ok(?:ay)?|hmm+|so|well|um|erm|oh|robot|machine)\W+)*"
    r"(?:let'?s\s+(?:test|try)\s+(?:you|u|it|this|your\s+\w+|the\s+\w+)(?:\s+out)?|let'?s\s+hear\s+it|(?:a\s+)?real\s+test|"
    r"let'?s\s+see\s+(?:you|u)\s+(?:answer|handle|do)\s+this(?:\s+one)?|pretend\s+(?:you'?re|you\s+are)\s+(?:a|an)\s+[\w-]+(?:\s+[\w-]+)?\s+and|let'?s\s+see\s+if\s+(?:you|u)\s+(?:can\s+)?"
    r"(?:understand|handle|manage|get|do)\s+(?:this|that)|(?:i'?m|i\s+am)\s+(?:a\s+bit\s+|very\s+|quite\s+)?"
    r"(?:sceptical|skeptical|doubtful|not\s+convinced)|i\s+(?:doubt|bet)\s+[^.:!?,]+?(?=[\s,]+but\b)|prove\s+(?:me|her|him|them|us)\s+wrong(?:\s+and)?|"
    r"(?:my\s+\w+|\w+)\s+(?:doesn'?t|don'?t)\s+(?:believe|think)\s+(?:you|u)\s+can\s+(?:do\s+)?(?:this|that|it))"
    r"(?:[\s.:!,;\u2014-]*\bbut\b)?[\s.:!,;\u2014-]+", re.I)
# ... or after it ("..., or is that above your pay grade?", "I don't suppose you know either.")
DOUBT_AFTER = re.compile(r"(?:,?\s*or\s+is\s+that\s+(?:above|beyond|too\s+much)\b[^?.!]*|(?<=[.?!,])\s*(?:and\s+)?i\s+(?:don'?t\s+suppose|doubt)"
                         r"\s+(?:you|u)\s+(?:know|can)\b[^?.!]*|,?\s*(?:and\s+)?don'?t\s+oversell\s+it)[?.!]*\s*$", re.I)


def past_the_doubt(text: str) -> str:
    """The request said around a dare or a doubt (DOUBT_FIRST, DOUBT_AFTER), without them; ""
    when there is none, or nothing is left."""
    rest = text
    while (found := DOUBT_FIRST.match(rest)) is not None and found.end() < len(rest):
        rest = rest[found.end():]
    rest = DOUBT_AFTER.sub("", rest).strip()
    return rest if rest and rest != text.strip() else ""


# the robot woken like a smart speaker before the request ("Hey robot, wifi", "OK museum, cancel
# booking ..."): an address, not a greeting, when something follows it
WAKE_WORDS = re.compile(r"^\W*(?:(?:hey|hi|hello|hiya|ok(?:ay)?|yo|oi)\s+(?:there\s+)?(?:mister\s+|mr\.?\s+)?"
                        r"(?:robot|robo|bot|museum|guide)\b[\s,.!:;-]*|(?:mister\s+|mr\.?\s+)?robot\s*[,.!:;]+\s*)(?=\w)", re.I)


# another assistant's wake words, said to the robot by habit or mistake ("Hey Google, show me booking
# RT9052", "Siri, museum opening hours", "Alexa take me to the toilets"): never part of the request
ASSISTANT = re.compile(r"^\W*(?:(?:hey|ok(?:ay)?|hi)\s+(?:siri|alexa|google|cortana|bixby)\b[\s,.!:;-]*|"
                       r"(?:siri|alexa|cortana|bixby|google)\s*[,.!:;]+\s*|(?:siri|alexa)\s+)(?=\w)", re.I)


def past_the_assistant(text: str) -> str:
    """What follows another assistant's wake words (ASSISTANT); "" when there are none."""
    found = ASSISTANT.match(text)
    return text[found.end():] if found else ""


def past_the_wake_words(text: str) -> str:
    """What follows the robot's wake words (WAKE_WORDS); "" when there are none."""
    found = WAKE_WORDS.match(text)
    return text[found.end():] if found else ""


# an aside to the family between two dashes ("Dinosaur tour at 2, name's Kowalski — Maya don't
# lick that — K O W A L S K I", "I need to move my booking — sorry, Mum, I'll call you back — move
# it to half three"); one with a number or a correction in it is the visitor's ("— no, three —")
ASIDE = re.compile(r"\s+(?:\u2014|\u2013|--?)\s+([^\u2014\u2013]{1,100}?)\s+(?:\u2014|\u2013|--?)\s+")
TO_THE_FAMILY = re.compile(r"(?:^|,\s*)[A-Z][a-z]+\s*(?:,|$)|^[A-Z][a-z]+\s+(?:don'?t|stop|leave|put|come|get|hold|wait|"
                           r"no|not|please|careful|give)\b|^(?:sorry|hang\s+on|hold\s+on|one\s+sec(?:ond)?|just\s+a\s+sec(?:ond)?|"
                           r"(?:put|leave|stop|don'?t|give|get)\b)")
THE_VISITORS_OWN = re.compile(r"\d|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|make\s+(?:it|that)|"
                              r"actually|instead|i\s+mean)\b", re.I)


def without_asides(text: str) -> str:
    """The utterance without its asides to the family (ASIDE, TO_THE_FAMILY)."""
    def aside(found: re.Match) -> str:
        said = found.group(1).strip()
        family = TO_THE_FAMILY.search(said) or said_to_someone_else(said)
        return ", " if family and not THE_VISITORS_OWN.search(said) else found.group(0)
    return ASIDE.sub(aside, text)


# a sentence to the family, a pause, then the robot ("Grandpa, ask about the wifi! ... Erm, yes,
# is there a wireless network for visitors?")
PAUSE = re.compile(r"\s*(?:\.\.\.|\u2026)\s*")


def after_the_pause(text: str) -> str:
    """What is said after a pause that follows talk to someone else; "" when there is none."""
    parts = PAUSE.split(text.strip())
    if len(parts) < 2 or not parts[-1] or not parts[0].endswith(("!", ".", "?")) or not said_to_someone_else(parts[0]):
        return ""
    return "" if said_to_someone_else(parts[-1]) else parts[-1]


# a request, a pause, then words for a caller or the others ("Is the café open right now? ...Okay,
# then we'll eat there.", "Book five tickets under Nguyen please. ...What, Dad?"): a pause after a
# finished sentence, unlike a search for words ("I'd like to book... the dinosaur tour")
PAUSE_AFTER_A_SENTENCE = re.compile(r"(?<=[.!?])\s*(?:\.\.\.|\u2026)\s*")
# what, after the pause, still belongs to the request: its name, a correction ("...It's under
# Carter, I think", "...no, three")
# the robot asked after the pause ("... Yes, all right. Back to the dinosaur hall, please, robot.")
TO_THE_ROBOT = re.compile(r"\brobot\b|\b(?:can|could|would|will)\s+(?:you|u)\b|\bplease\b", re.I)
# someone called by name at the end ("Say thank you to the robot, Poppy.")
CALLED_LAST = re.compile(r"(?<!\bname)(?<!\bunder)(?<!\bfor),\s*(?-i:[A-Z][a-z]+)\s*[.!?]+$")
STILL_THE_REQUEST = re.compile(r"\b(?:under|name(?:'s|\s+is)?|surname|actually|instead|i\s+mean|make\s+(?:it|that))\b|"
                               r"^\W*no\W+(?:\d|(?:one|two|three|four|five|six|seven|eight|nine|ten|twelve|half|quarter)\b)", re.I)


def before_the_pause(text: str) -> str:
    """The request said before a pause that follows a finished sentence, without the words after
    it, and with the codes read out after it ("Can you check my membership? ...Where's the card,
    Steve? ...It's M-10946."); "" when there is no such pause or what follows still belongs to the
    request (STILL_THE_REQUEST)."""
    head, *tails = PAUSE_AFTER_A_SENTENCE.split(text.strip())
    if not tails or not head.strip() or not any(t.strip() for t in tails):
        return ""
    if any(STILL_THE_REQUEST.search(t) or TO_THE_ROBOT.search(t) for t in tails) or \
            said_to_someone_else(head) or CALLED_LAST.search(head):
        return ""  # "Grandma lost the paper! ... Could you see whether we've got a booking?"
    codes = [c for t in tails for c in find_codes(t) if any(ch.isdigit() for ch in c.text)]
    if codes and not TO_THE_ROBOT.search(head):
        return ""  # "Look up Grandad's card! ... Yes, yes. It's member ID FM-20931."
    return " ".join([head.strip()] + [f"{c.text}." for c in codes])


# the caller or the others asked to wait before the robot is asked ("Hold on, Mum.", "Hang on,
# love, I'm asking the robot.", "Two secs, I'm booking.", "Wait, wait."): not part of the request
HOLD_ON = re.compile(
    r"^\W*(?:(?:yeah|yes|yep|ok(?:ay)?|sorry|right|shh+|mate|babe|love|no)\W+)*"
    r"(?:hold\s+on|hang\s+on|wait(?:\W+wait)?|(?:one|two|a|just\s+a)\s+(?:sec|secs|second|seconds|mo|moment|minute|tick)|"
    r"bear\s+with\s+me|give\s+me\s+a\s+(?:sec|second|moment|minute))"
    r"(?:\s+a\s+(?:sec|second|moment|minute|mo))?(?:\s*,\s*(?-i:[A-Z][a-z]+)|\s*,?\s+(?:love|mate|babe|darling|mum|dad|hun|pet))?"
    r"(?:\s*,\s*(?:i'?m|i\s+am|we'?re)\s+[^.!?]*)?\s*[.!]+\s+(?=\S)", re.I)


def past_the_hold(text: str) -> str:
    """What follows a sentence that asks someone to wait (HOLD_ON); "" when there is none."""
    found = HOLD_ON.match(text)
    return text[found.end():] if found else ""
