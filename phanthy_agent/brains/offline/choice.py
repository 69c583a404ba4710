"""Which meaning an utterance is taken as, among those the encoder ranks close to the best.

The sentence encoder ranks the intents, tools and FAQ entries by meaning (understanding.py);
close scores are told apart by what the words say, read off the tools' schemas:
- the request whose required arguments the words fill best wins ("sign us up for the tour at
  one, four people, name of Ada" is a booking, though "tour" sounds like the tour list); a
  multi-step request counts its first step (a move books what it cancelled); a place named as
  where something is ("I left my bag in the cafe") is no destination; a new time the words ask
  for ("to 11:30") counts against a request that cannot take one;
- a question the FAQ answers best stays a question, about the entry it names
  (`Understanding.subject`);
- a short utterance that names one request's place and nothing understood is that request
  ("wc please, where?").
Pure: no ROS, no model of its own.
"""

from __future__ import annotations

import re
from typing import Dict, List, Optional, Set, Tuple

from .config import Intent, IntentsFile
from .slots import Slot, fill, request_slots
from .addressee import ASKS_SOMETHING, CLAUSE_END, TO_SOMEONE_ELSE
from .codes import find_codes
from .elsewhere import phrase_pattern
from .names import NAME_STOP
from .values import find_enum, find_numbers, find_times, words
from .understanding import SUBJECT_MARGIN, Meaning, Understanding

# a question, not a request: a question word or an auxiliary first ("is it alright if ..."), or "?"
QUESTION = re.compile(r"^\W*(?:(?:so|and|um|excuse me|sorry|hi|hello)\W+)*(?:what|when|where|which|who|why|how|"
                      r"is|are|am|do|does|did|can|could|may|might|will|would|should|has|have)\b|\?\s*$", re.I)
# a yes/no question about how things are, not a request ("can you ..." and "could we ..." may be)
ASKS_WHETHER = re.compile(r"^\W*(?:(?:so|and|um|excuse me|sorry|hi|hello)\W+)*(?:is|are|do|does|has|have)\b", re.I)
# ... and a question about what a place has or when ("what food do you have in the café?", "until
# what time is the cafe serving"), unless it asks the way there
ASKS_ABOUT = re.compile(r"^\W*(?:(?:so|and|um|excuse me|sorry|hi|hello)\W+)*(?:(?:until|till|from|at|by)\s+)?"
                        r"(?:what|when|which|why)\b(?!.*\b(?:way|get\s+to|find|reach|directions?|go\s+to|head)\b)", re.I)
# ... though "is it possible to ..." asks for it
ASKS_MAY = re.compile(r"^\W*(?:(?:so|and|um|excuse me|sorry|hi|hello)\W+)*(?:is|are)\s+(?:it|there|we|i)\s+"
                      r"(?:any\s+)?(?:possible|way|chance|able|allowed|ok|okay|alright|all\s+right)\b", re.I)
# a question about the world's past or the robot's opinion, not about the venue as it is: "how
# tall was a brachiosaurus?", "why did the dinosaurs die out?", "which one is scariest in your
# opinion?" (a visitor's own past is the venue's business: "did my booking go through?")
ABOUT_THE_WORLD = re.compile(
    r"^\W*(?:(?:so|and|um|hey|excuse me|sorry|ok|okay)\W+)*(?:(?:how|why|when|where|what|which|who)(?:\s+\w+){0,2}\s+)?"
    r"(?:was|were|did|had)\s+(?!(?:i|we|you|my|our|your|me|us|anyone|anybody|someone|somebody|it|this|that|there|"
    r"they)\b)\w+|\bin\s+your\s+opinion\b|\bdo\s+you\s+(?:think|reckon|believe)\b|\byour\s+fav(?:ou)?rite\b|"
    r"\b(?:the\s+)?\w+est\s+\w+\s+(?:in|on|of)\s+(?:the\s+)?(?:world|universe|solar\s+system|galaxy|earth|planet)\b", re.I)
# a fact about the world, whatever exhibit it names: a comparison ("was T. rex faster than a
# human?", "which is bigger, a blue whale or ..."), a count of things the venue does not sell or
# seat ("how many planets are in the solar system?"), how things work ("how do rockets get into
# space?"), or the past of a kind of thing ("how big was a T. rex?"). Not about the venue's
# services ("how many tickets are left?", "how does the audio guide work?").
WORLD_FACT = re.compile(
    r"\b(?:bigger|larger|heavier|faster|taller|longer|older|smaller|hotter|colder|stronger|smarter|"
    r"further|farther|better|worse)\s+than\b|\b(?:which|what)(?:'s|\s+(?:is|was|one\s+is))\s+(?:the\s+)?\w+(?:er|est)\b|"
    # a superlative of a kind, how things come to be, how big a thing of the sky is ("was T. rex the
    # biggest dinosaur", "how are fossils made", "how big is a black hole")
    r"\b(?:was|were|is|are)\s+(?:the\s+)?[\w.' ]{2,20}?\s+the\s+(?:biggest|largest|fastest|smartest|strongest|oldest|"
    r"deadliest|scariest|heaviest|tallest|first|last)\b|"
    r"^\W*how\s+(?:are|were|is|was|do|did)\s+(?:the\s+)?\w+\s+(?:made|formed|built|found|dug\s+up|discovered|named|created)\b|"
    r"^\W*how\s+(?:big|old|hot|far|heavy|fast|tall|long|small)\s+(?:is|was|are|were)\s+(?:a|an)\s+\w+|"
    # what the animal "really" was, not the exhibit ("was t rex actually fast", "did t rex really have
    # feathers"; "is the skeleton really real?" is the exhibit's)
    r"^\W*(?:was|were|did|could|can|do|does)\s+(?:a\s+|the\s+)?[\w.\- ]{1,20}?\s+(?:actually|really)\b(?!.{0,20}\b(?:real|genuine|original|fake|copy|cast)\b)|"
    r"\bhow\s+many\s+\w+\s+(?:there\s+)?(?:are|r|is|were|was|do|does|did|has|have|had)\b|"
    r"^\W*how\s+(?:do|does|did)\s+(?!(?:i|we|you|u|my|our|your|me|us|it|this|that|they|one)\b)\w+|"
    r"\b(?:was|were)\s+(?:a|an)\s+\w+|\bwho\s+would\s+win\b|\bin\s+a\s+fight\b|\blife\s+on\s+(?:other|another|\w+s)\b|"
    r"^\W*who\s+(?:first\s+)?(?:found|discovered|invented|named|dug\s+up)\b|"
    # what a kind of thing ate, meant, looked like; what one thing is to another; its abilities
    r"\bwhat\s+(?:did|does|do)\s+(?:a\s+|an\s+|the\s+)?[\w.' ]{2,30}?\s+(?:eat|mean|look\s+like|sound\s+like|weigh)\b|"
    r"\bdifference\s+between\b|\bwhich\s+country\b|\bstill\s+alive\b|"
    r"^\W*are\s+\w+\s+(?:really\s+)?(?:dinosaurs|reptiles|mammals|birds|related)\b|"
    r"^\W*(?:could|can|did)\s+(?:dinosaurs|t\.?\s*rex(?:es)?|\w+sauruse?s?|\w+saurs?|rockets|astronauts)\s+(?:swim|fly|climb|run|see|hear|talk|roar)\b|"
    # what animals can do, how long they live, what a thing is worth ("Can guide dogs see colours?",
    # "How long do elephants live?", "How much is this fossil worth?", "Who won the wheelchair tennis?")
    r"^\W*(?:could|can|do)\s+(?!(?:kids|children|visitors|people|members|adults|students|pupils|babies|toddlers|carers|groups|we|you|u|i)\b)"
    r"(?:\w+\s+)?\w+s\s+(?:see|hear|smell|swim|fly|live|sleep|dream|talk|feel)\b|"
    r"^\W*how\s+(?:long|fast|far|often|high)\s+(?:do|does|did|can|could)\s+(?!(?:i|we|you|u|my|our|your|it|they|the)\b)\w+s\s+\w+|"
    r"\bhow\s+much\s+(?:is|are|was|would)\s+(?:this|that|these|those|the|a)\s+(?:\w+\s+){0,2}worth\b|"
    r"^\W*who\s+(?:won|scored|wrote|painted|sang|directed|composed)\b|\bhow\s+long\s+(?:does|did|would|will)\s+it\s+take\s+to\s+\w+\s+to\b", re.I)
# a word asked about, or the venue's own history: "how do you spell triceratops?", "define fossil",
# "what is a fossil?", "who built this museum?", "what year did this museum first open?"
WORD_OR_HISTORY = re.compile(
    r"^\W*(?:(?:how\s+do\s+(?:you|u|i|we)|(?:can|could|will)\s+(?:you|u))\s+spell|spell|define|what\s+does\s+the\s+word)\b|"
    r"\bwhat\s+(?:means|is\s+the\s+meaning\s+of)\s+(?:the\s+word\b|\w+)|\bhow\s+do\s+you\s+say\b[^?]*\bin\s+(?:english|german|french|spanish|italian|polish|japanese)\b|"
    r"^\W*what\s+(?:is|are)\s+(?:a|an)\s+(?!(?:member|membership|ticket|tour|booking|reservation|refund|code|family\s+ticket|"
    r"concession|audio\s+guide|cloakroom|locker|hearing\s+loop|quiet\s+room|sensory\s+bag)s?\b)\w+\W*$|"
    # "What is autism, exactly?" (not "what is upstairs?", "what's open?")
    r"^\W*what\s+(?:is|are)\s+(?!(?:the|your|my|our|this|that|these|those|it|there|on|in|upstairs|downstairs|here|next|open|closed|"
    r"free|included|allowed|available|happening|new|wifi|wi-fi|password|membership|parking)\b)\w+(?:\W+exactly)?\W*$|"
    r"\bwho\s+(?:built|founded|designed|started|owns|opened)\s+(?:this|the)\s+(?:museum|building|place)\b|"
    # the robot's own life, not its services ("do you dream at night?", "can you turn into a dinosaur?",
    # "how much would it cost to buy a robot like you?")
    r"\b(?:do|can|did|have|will)\s+(?:you|u)\s+(?:ever\s+)?(?:dream|sleep|eat|feel|fall\s+in\s+love|get\s+(?:bored|lonely|tired|sad|"
    r"cold|scared))\b|\bbuy\s+(?:a|one|my\s+own)\s+robot\b|\b(?:what|which)\s+year\s+(?:did|was|were)\b|\bwhen\s+(?:was|did)\s+(?:this|the)\s+(?:museum|building|place)\s+"
    r"(?:first\s+|originally\s+)?(?:built|founded|opened?|made|start)\b|\bhow\s+old\s+is\s+(?:this|the)\s+(?:museum|building)\b", re.I)
# someone called by name first ("Jake, put the astronaut helmet down", "Tom, is the dino tour on the
# agenda?"): a capitalized word the venue's files never use, and none of these
STOP_WORD = re.compile(r"\b(?:stop|halt|never\s*mind|forget|scrap|scratch|leave\s+it|don'?t\s+bother|shut\s+up)\b", re.I)
# a clause that only says stop ("stop there", "scrap that", "just leave it", "shut up", "forget ah said owt")
STOP_CLAUSE = re.compile(r"^\W*(?:(?:oh|ah|no|whoa|woah|just|please|robot|sorry|actually|okay|ok)\W+)*(?:(?:you\s+can\s+)?stop(?:\s+(?:there|here|it|that|"
                         r"walking|walkin'?|talking|moving|now))?|halt|scrap\s+that|scratch\s+that|never\s*mind|forget\s+(?:it|that)|"
                         r"(?:just\s+)?leave\s+it|shut\s+up|don'?t\s+bother|forget\s+(?:i|ah)\s+said\s+(?:anything|owt|that))"
                         r"(?:\W+(?:please|robot|sorry|then|now|thanks))*\W*$", re.I)
CALLED_BY_NAME = re.compile(r"^\W*([A-Z][a-z]+),\s+(?=\S)")
NOT_NAMES = {"hello", "hi", "hey", "hiya", "howdy", "yes", "yeah", "yep", "no", "nope", "okay", "ok", "right", "well", "so",
             "sorry", "please", "thanks", "cheers", "ta", "actually", "excuse", "pardon", "oh", "ah", "um", "er", "erm",
             "hmm", "wait", "listen", "look", "quick", "sir", "madam", "great", "perfect", "lovely", "brilliant", "cool",
             "nice", "fine", "alright", "sure", "now", "then", "first", "also", "anyway", "stop", "cancel", "robot",
             "guide", "friend", "mate", "buddy", "pal", "bye", "goodbye", "wow", "ooh", "oops", "gosh", "blimey", "super",
             "indeed", "absolutely", "exactly", "done", "ready", "sorted", "today", "tomorrow", "tonight", "later",
             "again", "instead", "next", "plus", "cheerio", "farewell", "apologies", "legend", "lifesaver", "hero",
             "marvellous", "wonderful", "splendid", "champion", "ace",
             # a visitor's own politeness words, from abroad ("Bitte, two adults ...", "Sumimasen, wifi?")
             "bonjour", "hola", "ciao", "hallo", "danke", "merci", "gracias", "bitte", "entschuldigung", "ja", "nein",
             "si", "oui", "sim", "tak", "hai", "scusi", "prego", "grazie", "perdon", "disculpe", "oye", "vale", "bueno",
             "sumimasen", "onegaishimasu", "arigato", "przepraszam", "prosze", "obrigado", "obrigada", "salida", "ausgang"}
# the rest of a call said to the robot: a stranger is asked with "please" and thanked
TO_A_STRANGER = re.compile(r"\b(?:please|pls|thanks|thank\s+you|cheers|ta)\b", re.I)
# somewhere near the venue, not in it: "a bookshop around here", "a playground near the museum",
# "a decent coffee outside the museum"
OUTSIDE_VENUE = re.compile(r"\boutside\s+(?:the|this)\s+(?:museum|building)\b")
NEAR_VENUE = re.compile(r"\b(?:near\s+(?:the|this)\s+museum|(?:a|an|any|some)\s+(?:\w+\s+){1,3}(?:around|round)\s+here|"
                        r"near\s+here|nearby|nearest|in\s+(?:the\s+)?town|"
                        r"in\s+the\s+area|close\s+by|walking\s+distance)\b", re.I)
VENUE_SERVICE = re.compile(
    r"\b(?:you|your|u|here|museum|tickets?|seats?|places|spaces|spots|tours?|bookings?|reservations?|refunds?|"
    r"members?|membership|wifi|lifts?|elevators?|toilets?|cafe|shop|gallery|galleries|hall|exhibits?|"
    r"exhibitions?|on\s+display|guides?|robot|i|we|us|our|my|me)\b", re.I)
# asked to be taken somewhere ("guide us along to the space exhibits", "show us the rockets and planets")
ESCORT = re.compile(r"\b(?:take|bring|guide|lead|walk|show|escort)\s+(?:(?:a\s+few|some|all|both|the\s+two)\s+of\s+)?"
                    r"(?:me|us|them|him|her)\b(?!\s+(?:my|our|your|the\s+(?:booking|reservation|code|times?|prices?)))"
                    r"|\b(?:an?\s+)?escort\b", re.I)
WHERE = re.compile(r"\bwhere(?:'s|\s+is|\s+are|\s+can\s+(?:i|we)|\s+do\s+(?:i|we)|\s+would\s+i)\b", re.I)
BARE_FILLER = {"please", "the", "a", "an", "um", "uh", "erm", "ok", "okay", "hi", "hello", "robot", "to", "now", "pls",
               "excuse", "me", "sorry", "thanks"}
# a time the visitor wants something moved to ("to 11:30", "to half past two", "back to three")
TARGET_TIME = re.compile(r"(?<!\bcoming\s)(?<!\bgoing\s)(?<!\bcome\s)(?<!\bgo\s)(?<!\bget\s)"
                         r"\b(?:to|till|until)\s+(?:the\s+)?(?:\d{1,2}(?::\d{2})?\s*(?:am|pm|o'?clock)?\b|"
                         r"(?:half|quarter)\s+(?:past|to)\b|half\s+(?:\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\b|(?:one|two|three|four|five|six|seven|eight|nine|ten|"
                         r"eleven|twelve|noon|midday)\b(?!\s+(?:tickets?|people|places|seats|of)\b))", re.I)
# a statement of what the visitor wants, not a question ("I need seven tickets", "we'd like to book")
WANTS = re.compile(r"^\W*(?:(?:um|uh|so|hi|hello|ok(?:ay)?|right)\W+)*(?:i|we)(?:'d|\s+would)?\s+(?:really\s+)?"
                   r"(?:like|want|need|wanna)\b(?![^?]*\?\s*$)", re.I)
WANT_MARGIN = 0.15  # how far below the FAQ's question a wanted request may be
NAMED_WORDS = 6  # an utterance this short that names a place and nothing understood walks there
# a request about the visitor's own record (one that takes a code: "what time is my tour?") is
# said with the visitor's own words; "what time is the space tour?" asks about every visitor's
OWN = re.compile(r"\b(?:my|our|his|her|hers|their|mine|ours|booked|booking|bookings|reservation|reserved|reference|"
                 r"ref|code|name|named|called|surname|paid|bought|purchased|money)\b|"
                 r"\b(?:did|am|are|is|was|were|have|had)\s+(?:i|we|he|she|they)\b", re.I)
SLOT_MARGIN = 0.08  # meanings this close to the best are told apart by the slots the words fill


# asked of the robot: "can you ...", "could you please ...", "please ...", or a bare imperative
_ASKED_OF_ROBOT = r"^\W*(?:(?:hey|hi|hello|hiya|there|excuse me|sorry|pardon me|forgive me|um|uh|erm|er|so|ok|okay|right|oi|robot)\W+)*" \
                  r"(?:please\W+)?(?:(?:can|could|would|will)\s+(?:you|u|ye|yer|ya)\s+(?:please\s+|just\s+)?|(?:you|u)\s+can\s+)?"


# the robot asked to do something, anywhere in the utterance: "can you do that for me?"
ASKED_FOR = re.compile(r"\b(?:can|could|would|will)\s+(?:you|u)\b|\bfor\s+me\b", re.I)
# a remark about a place or a tour, a statement that asks nothing ("honestly the gift shop here is
# overpriced", "the space tour was wonderful, wasn't it?"): no walk there, no booking, no answer
REMARK = re.compile(r"^\W*(?:(?:tbh|honestly|well|oh|wow|ugh|yeah|man|god|gosh|so|mm+|ha(?:\s+ha)*|i\s+think|i\s+reckon|i\s+must\s+say|"
                    r"i\s+thought|apparently|look)\W+)*"
                    r"(?:the|that|this|your)\s+(?:[\w'.-]+\s+){0,5}(?:(?:here\s*)?(?:is|was|were|are|'s|looks?|seems?)\b|[\w.-]+'s\b)"
                    # what a place has got, when a tour goes ("the gift shop's got the same magnets as last
                    # year", "the space tour starts at three so we've got time for lunch")
                    r"|^\W*(?:the|that|this|your)\s+(?:[\w']+\s+){0,3}\w+'s\s+(?:got|been)\b"
                    r"|^\W*(?:(?:yeah|yes|oh|so|well|right)\W+)*(?:the|that|this|your)\s+(?:[\w']+\s+){0,4}(?:starts|departs|leaves|begins|finishes)\s+(?:at|from|in)\b"
                    # an exclamation at an exhibit, a place refused or put off ("oh my god look at that rocket",
                    # "not the dinosaur hall again", "I'll have a look in the gift shop later")
                    r"|^\W*(?:(?:oh\s+my\s+god|omg|wow|whoa|oh|ooh|look|bro|dude|mate)\W+)*look\s+at\s+(?:that|this|the|those|these)\s+"
                    r"(?:(?:big|huge|giant|massive|little|tiny|real)\s+)?(?!(?:booking|reservation|tickets?|code)\b)[\w.-]+(?:\s+[\w-]+)?(?:\W*$|!|,\s+(?:it|that|this)'?s\b)"
                    r"|^\W*(?:(?:the|that|this|your)\s+(?:[\w'-]+\s+){0,4}|(?:i|we)\s+)(?:haven'?t|hasn'?t|didn'?t|weren'?t|wasn'?t)\b"
                    r"|^\W*i\s+swear\b"
                    r"|^\W*not\s+the\s+[\w\s]+?\s+again\b|^\W*(?:no\W+)?(?:we'?re|i'?m)\s+not\s+(?:buying|getting|going)\b"
                    r"|^\W*(?:i'?ll|we'?ll)\s+(?:have\s+a\s+look|pop|nip|go)\b[^?]*\blater\b", re.I)
ASKS_ANYTHING = re.compile(r"\b(?:can|could|would|will|shall|want|need|like|please|pls|where|which|how|what|when|who|"
                           r"why|refund|cancel\w*|book\w*|money|thank\w*|take|show|tell|help|code|name|is\s+there|are\s+there|"
                           r"(?:has|have|did)\s+(?:anyone|anybody|someone|somebody|you))\b", re.I)

# a statement that names a place and asks nothing is news, not a walk ("I'm in the dinosaur hall
# now, the sensor's bleeping again", "the cafe's run out of ice lollies apparently"): no question,
# none of ASKS_ANYTHING's words, no word of going somewhere, a correction's words, or a need
GOING = re.compile(r"\b(?:go|going|goes|gone|head\w*|lead|guide|walk\w*|bring|get|find|visit|see|way|directions?|follow|"
                   r"escort|let'?s|off|wanna|gonna|fancy|keen|show|first|instead|actually|next|then|desperate\w*|"
                   r"dying|bursting|urgent\w*|quick|asap|must|got\s+to|gotta|have\s+to|looking|back|point|towards|wear)\b", re.I)
STATEMENT_WORDS = 6  # shorter, a place said is a request ("the dinosaur hall, please")
LEADING_FILLER = {"um", "uh", "er", "erm", "ok", "okay", "so", "yo", "hey", "hi", "robot", "please", "pls", "right",
                  "just", "oh", "now", "and", "then"}


class Chooser:
    def __init__(self, cfg: IntentsFile, understanding: Understanding):
        self.cfg, self.understanding = cfg, understanding
        self._intents = {i.name: i for i in cfg.intents}
        def alternatives(phrases: List[str]) -> str:
            return r"(?:" + "|".join(r"\s+".join(re.escape(w) for w in e.split()) for e in phrases) + r")\b"
        asked = cfg.errands + cfg.asked_errands
        self._errand = re.compile(_ASKED_OF_ROBOT + alternatives(asked), re.I) if asked else None
        # as said too: a synonym may have read one away ("push the pram" reads "move the pram")
        self._asked_only = re.compile(_ASKED_OF_ROBOT + alternatives(cfg.asked_errands), re.I) if cfg.asked_errands else None
        self._errand_named = re.compile(r"\b" + alternatives(cfg.errands), re.I) if cfg.errands else None

    def errand(self, best: Meaning, text: str, tools: Dict[str, dict]) -> bool:
        """An errand asked of the robot that it has no tool for ("can you carry my bags to the
        car?" is not the cloakroom's answer; "I need to pay for my parking, can you do that for
        me?"): asked first, or named and asked for anywhere. Not a request whose arguments the
        words fill. Read with the synonyms ("call off" is "cancel")."""
        if self._errand is None:
            return False
        if best.kind == "tool" and best.score >= self.cfg.accept:
            return False  # a driver's own tool does it ("could you water the plants" once a garden driver is up)
        if self.asked_errand(text):  # asked first: "can you take a photo of the kids by the T. rex?"
            return True
        if best.kind != "faq" and self.evidence(best, text, tools) > 0:
            return False
        said = self.understanding.normalized(text)
        return bool(self._errand_named and self._errand_named.search(said) and ASKED_FOR.search(said))

    def leading_request(self, ranked: List[Meaning], text: str, tools: Dict[str, dict]) -> Optional[Meaning]:
        """A request named by its verb first thing, said as a command ("book 5 tickets pls",
        "Cancel, please, the tour for Ivanova, ... we must go to the airport", "Rebook me onto
        the 3pm tour"): that request when its meaning is at least `suggest`, whatever scores
        higher or a later clause's pattern."""
        said = words(self.understanding.normalized(text))
        while said and said[0] in LEADING_FILLER:
            said.pop(0)
        if not said:
            return None
        names = [i.name for i in self.cfg.intents] + [m.key for m in ranked if m.kind == "tool"]
        return next((m for m in ranked if m.kind != "faq" and m.score >= self.cfg.suggest and
                     said[0] in self._verbs(m, names) and not (m.kind == "intent" and self._intents[m.key].act)),
                    None)

    @staticmethod
    def remark(text: str) -> bool:
        """A statement about a place or a tour that asks for nothing (REMARK, no ASKS_ANYTHING)."""
        return bool(REMARK.search(text)) and not ASKS_ANYTHING.search(text) and not re.search(r"\bor\s+(?!no\b|not\b)\w+[^?]*\?", text)

    def news(self, best: Meaning, text: str, tools: Dict[str, dict]) -> bool:
        """A statement that names a place the robot could walk to but asks for nothing (GOING)."""
        if best.kind == "faq" or not self._place_slots(best, tools) or "?" in text:
            return False
        if len(text.split()) < STATEMENT_WORDS or ASKS_ANYTHING.search(text) or GOING.search(text):
            return False
        clauses = [c for c in re.split(r"[,.!;:]+", text) if c.strip()]
        # a clause that asks ("..., is that okay") or is a place alone ("Gift shop. Now. Before ...")
        return not any(ASKS_WHETHER.search(c) or self.bare_place(c, tools) is not None for c in clauses)

    def asked_errand(self, text: str) -> bool:
        """An errand asked of the robot first thing ("could you hold my bag while I go to the loo?")."""
        if self._asked_only is not None and self._asked_only.search(text):
            return True
        return self._errand is not None and bool(self._errand.search(self.understanding.normalized(text)))

    def leading_act(self, text: str, tools: Dict[str, dict]) -> Optional[str]:
        """A greeting, thanks, goodbye or stop said whole in the first clauses, the rest small
        talk that asks for nothing ("Thank you! You're really clever.", "Farewell, it was lovely
        to meet you", "no, no, stop walking please, wait"): that act. Not when the rest asks for
        something, names a code or somewhere else, or is said to someone else ("thanks, where's
        the cafe?", "hello, is the bank open?")."""
        for end in (m.end() for m in CLAUSE_END.finditer(text)):
            head, rest = text[:end], text[end:]
            if not rest.strip():
                return None
            name = self.understanding.pattern(head)
            if name is None or not self._intents[name].act:
                continue
            again = self.understanding.pattern(rest)  # "hallo, guten Tag": the same act twice
            if again is not None and self._intents[again].act == self._intents[name].act:
                return name
            if find_codes(rest) or again is not None or TO_SOMEONE_ELSE.search(rest) or self.asked_errand(rest):
                return None  # "Hello, sorry, could you fetch me a glass of water?" asks an errand
            ranked = self.understanding.rank(rest, tools)
            if ranked and ranked[0].kind == "intent" and self._intents[ranked[0].key].act:
                # "it was lovely to meet you"; but "hello, what can you do?" asks
                asks = self._intents[ranked[0].key].act == "help" and ranked[0].score >= self.cfg.accept
                return None if asks and self._intents[name].act != "help" else name
            if self._news_after(name, head, rest, ranked):  # "Cheerio, our bus is here."
                return name
            idle = bool(ranked) and ranked[0].score < self.cfg.suggest
            return name if idle and self.understanding.out_of_scope(rest) < self.cfg.suggest else None
        return None

    def stop_said(self, text: str) -> bool:
        """A clause that only says stop among others that ask for nothing ("Actually, forgive me, stop
        there, I've changed my mind.", "Oh, I'm so sorry, never mind, I've just spotted my husband")."""
        clauses = [c for c in re.split(r"[,.;!?]+", text) if c.strip()]
        stops = [c for c in clauses if STOP_CLAUSE.search(c)]
        others = [c for c in clauses if not STOP_CLAUSE.search(c) and len(c.split()) > 1]
        if not stops or len(clauses) < 2 or find_codes(text) or TO_SOMEONE_ELSE.search(text):
            return False  # "nah the gift shop's a total rip off, don't bother" is said to the others
        return not any(ASKS_SOMETHING.search(c) or REMARK.search(c) for c in others)  # "Oh, the wifi's back on my phone"

    def _news_after(self, name: str, head: str, rest: str, ranked: List[Meaning]) -> bool:
        """Thanks, a goodbye or a stop (said with a word of stopping, not only "hang on") and then
        news that asks for nothing ("Please stop walking, my daughter needs a minute", "Perfect,
        thanks! The kids loved talking to you."): the act stands, whatever the news is near."""
        act = self._intents[name].act
        if act not in ("thanks", "goodbye", "stop") or ASKS_SOMETHING.search(rest):
            return False
        if act == "stop" and not STOP_WORD.search(head):
            return False  # "hang on, I can't hear you, the signal's terrible" is the phone's
        asked = ranked[0] if ranked else None  # "cancel it. the booking. under Imogen." asks for the booking
        return asked is None or asked.kind != "intent" or bool(self._intents[asked.key].act) or asked.score < self.cfg.accept

    def best(self, ranked: List[Meaning], text: str, tools: Dict[str, dict]) -> Optional[Meaning]:
        """The top meaning; among those within SLOT_MARGIN of it, the request whose required
        arguments the words fill best ("sign us up for the tour at one, four people, name of
        Ada" is a booking, though "tour" makes it sound like the tour list; "dinosaurs please"
        is a walk). A question the FAQ answers best stays a question, whatever place it names
        ("when does the cafe close?" is not a walk to the cafe)."""
        if find_codes(text):  # a booking reference or a member number is for a request, not a stop
            ranked = [m for m in ranked if not (m.kind == "intent" and self._intents[m.key].act)]
        if not ranked:
            return None
        if ranked[0].kind == "faq" and QUESTION.search(text):
            subject = self.understanding.subject(ranked, text)
            return self._walk_to(subject, text, tools) or subject
        said = set(words(self.understanding.normalized(text)))
        names = [i.name for i in self.cfg.intents] + [m.key for m in ranked if m.kind == "tool"]
        if ranked[0].kind == "faq" and WANTS.search(text):
            # "I need seven tickets", "I'd like to book tickets": a request the words fill or name,
            # though the FAQ's question sounds nearer
            wanted = [m for m in ranked if m.kind != "faq" and m.score >= max(self.cfg.accept, ranked[0].score - WANT_MARGIN)
                      and (self.evidence(m, text, tools) > 0 or self._verbs(m, names) & said)]
            ranked = wanted + [m for m in ranked if m not in wanted] if wanted else ranked
        wants = bool(WANTS.search(text))
        # "I'd like to cancel the dinosaur tour for the Greens": the request named, a little further down
        close = [m for m in ranked if m.score >= ranked[0].score - SLOT_MARGIN or
                 wants and m.kind != "faq" and m.score >= ranked[0].score - WANT_MARGIN and self._verbs(m, names) & said]
        named = {m.key: bool(self._verbs(m, names) & said) for m in close}
        best = max(close, key=lambda m: (named[m.key] and sum(named.values()) == 1, self.evidence(m, text, tools), named[m.key], m.score))
        if best.kind != "faq" and (ASKS_WHETHER.search(text) or ASKS_ABOUT.search(text)) and self._place_slots(best, tools):
            # "are the toilets free to use?", "is there a gender neutral loo?": answered, not walked to
            best = next((m for m in ranked if m.kind == "faq" and m.score >= best.score - SLOT_MARGIN), best)
        elif best.kind != "faq" and ASKS_WHETHER.search(text) and not ASKS_MAY.search(text) and not named[best.key] and \
                self._takes_details(best, tools) and not any(not m.weak for m in find_numbers(text, find_times(text))):
            # "is there a space tour later on?", "do the tours have a signer?": what is there, not a booking
            best = next((m for m in close if m.kind == "faq" or not self._takes_details(m, tools)), best)
        if best.kind != "faq" and self._names_place_as_where(best, text, tools):
            # "I left my scarf in the dinosaur hall, what should I do": no walk, a question
            best = next((m for m in ranked if m.kind == "faq" and m.score >= best.score - SUBJECT_MARGIN), best)
        # "I left my glasses in the space gallery": the gallery is where, the question is lost property
        best = self.understanding.subject(ranked[ranked.index(best):], text) if best.kind == "faq" else best
        return self._walk_to(best, text, tools) or best

    def _request(self, meaning: Meaning) -> Tuple[Optional[Intent], List[str]]:
        """The intent (or None) and the tools a meaning asks for: an intent's, a tool's own, or none."""
        intent = self._intents.get(meaning.key) if meaning.kind == "intent" else None
        names = (intent.tools if intent else []) if meaning.kind == "intent" else [meaning.key] if meaning.kind == "tool" else []
        return intent, names

    def _takes_details(self, meaning: Meaning, tools: Dict[str, dict]) -> bool:
        """A request that needs the visitor's details (a count, a name, a code), not a look-up."""
        intent, names = self._request(meaning)
        return any(s.required and s.kind not in ("source", "enum") for s in request_slots(intent, names, tools))

    def _verbs(self, meaning: Meaning, names: List[str]) -> Set[str]:
        """The words a request is named by: the first of its name ("cancel" of `cancel`,
        "refund" of `refund_booking`), if no other name (`names`) has it ("booking" names
        several), and its intent's `verbs` ("move", "switch" of a change of booking): said, they
        tell requests the words fill equally well apart ("cancel the dinosaur tour I booked,
        code ..., name ..." is no move, though the encoder puts it nearer one)."""
        named = words(meaning.key) if meaning.kind in ("intent", "tool") else []
        others = {w for key in names if key != meaning.key for w in words(key)}
        intent = self._intents.get(meaning.key) if meaning.kind == "intent" else None
        return ({named[0]} if named and named[0] not in others else set()) | set(intent.verbs if intent else [])

    def bare_place(self, text: str, tools: Dict[str, dict]) -> Optional[Meaning]:
        """An utterance that is a place and nothing else ("space gallery", "gift shop?", "the loo
        please") is a walk there, however well the place's FAQ entry scores."""
        said = [w for w in words(text) if w not in BARE_FILLER]
        if not 0 < len(said) <= 4:
            return None
        for name, place in self._walks(tools):
            found = find_enum(text, place.enum, dict(place.aliases))
            if found is not None and set(said) <= set(words(found[1])):
                return Meaning("intent", name, 1.0)
        return None

    def _walks(self, tools: Dict[str, dict]) -> List[Tuple[str, Slot]]:
        """The intents whose request takes a place (a required enum), with that slot."""
        walks = []
        for intent in self.cfg.intents:
            places = self._place_slots(Meaning("intent", intent.name, 1.0), tools) if intent.tools else []
            walks += [(intent.name, places[0])] if places else []
        return walks

    def _walk_to(self, best: Meaning, text: str, tools: Dict[str, dict]) -> Optional[Meaning]:
        """A where-question, or a request to be taken, whose FAQ answer is about a place the
        robot can walk to is a walk there ("where can I buy postcards?", "T-rex! where is it?",
        "show us the rockets and planets"): a guide shows the way."""
        if best.kind != "faq" or not (WHERE.search(text) or ESCORT.search(text)):
            return None
        entry = self.understanding.faq[int(best.key)].id.replace("_", " ")
        return next((Meaning("intent", name, best.score) for name, place in self._walks(tools)
                     if entry and fill([place], entry).args), None)

    def _names_place_as_where(self, meaning: Meaning, text: str, tools: Dict[str, dict]) -> bool:
        """A request for a place that the words name only as where something is."""
        enums = self._place_slots(meaning, tools)
        return bool(enums) and bool(fill(enums, text).args) and not fill(enums, text, destinations=True).args

    @staticmethod
    def world_fact(text: str) -> bool:
        """A fact about the world, not about the venue's services (WORLD_FACT)."""
        return bool(WORLD_FACT.search(text)) and not VENUE_SERVICE.search(text) or bool(WORD_OR_HISTORY.search(text))

    def calls_someone(self, text: str) -> bool:
        """Someone called by name first (CALLED_BY_NAME), with no code said, the robot not
        addressed and no "please" or thanks after (a stranger is asked so): the visitor's own name
        comes with a code; a word of the venue's, an interjection or a politeness word from abroad
        (NOT_NAMES: "Bitte, ...", "Farewell, ...") is no name."""
        called = CALLED_BY_NAME.match(text)
        if called is None or find_codes(text) or re.search(r"\brobot\b", text, re.I):
            return False
        word = called.group(1)
        if TO_A_STRANGER.search(text[called.end():]):
            return False
        return not (word.lower() in NOT_NAMES or word in NAME_STOP or word.lower().endswith("ly") or
                    {word.lower(), word.lower() + "s"} & self.understanding.vocabulary)

    def outside(self, best: Meaning, text: str) -> bool:
        """An FAQ answer asked for somewhere outside the venue (OUTSIDE_VENUE), or nearby
        (NEAR_VENUE) without naming the entry's subject ("is there a restroom nearby?" names it)."""
        if best.kind != "faq" or not (OUTSIDE_VENUE.search(text.lower()) or NEAR_VENUE.search(text)):
            return False
        entry = self.understanding.faq[int(best.key)]
        if OUTSIDE_VENUE.search(text.lower()):
            return not re.search(r"\boutside\b", entry.answer)  # "which bus stops outside the museum?"
        if not entry.id:
            return True
        # the subject's words, or their stems ("can I park nearby": parking)
        stems = [rf"\b{re.escape(w[:max(4, len(w) - 3)])}\w*" for w in entry.id.split("_") if len(w) >= 4]
        subject = [entry.id.replace("_", " ")] + [phrase for i in self.cfg.intents for c in i.slots.values()
                                                   for phrase, value in c.aliases.items() if value == entry.id]
        said = self.understanding.normalized(text)
        return not phrase_pattern(subject).search(said) and not any(re.search(s, said) for s in stems)

    def about_the_world(self, best: Meaning, text: str) -> bool:
        """A fact about the world, not about the venue's services (WORLD_FACT), or a question
        about the world's past or an opinion (ABOUT_THE_WORLD) that `best`, an FAQ entry or a
        request, does not name (the FAQ's own "how tall was the T. rex?" names it)."""
        if best.kind == "intent" and self._intents[best.key].act:
            return False
        if self.world_fact(text):
            # "how old is the T. rex, older than the groom?": the FAQ's subject asked first, then a joke
            first = re.split(r"[,.;!?]+\s*", self.understanding.normalized(text).strip())[0]
            return not (best.kind == "faq" and self.understanding.names(best, first) and not self.world_fact(first))
        if not ABOUT_THE_WORLD.search(text):
            return False
        return not (best.kind == "faq" and self.understanding.names(best, text))

    def _place_slots(self, meaning: Meaning, tools: Dict[str, dict]) -> List[Slot]:
        """The required enum slots (a place) of a request."""
        intent, names = self._request(meaning)
        return [s for s in request_slots(intent, names, tools) if s.kind == "enum" and s.required]

    def evidence(self, meaning: Meaning, text: str, tools: Dict[str, dict]) -> float:
        intent, names = self._request(meaning)
        if not names or any(n not in tools for n in names):
            return 0.0
        every = request_slots(intent, names, tools)
        # the later steps are filled from the results of the first (a move books what was cancelled)
        slots = [s for s in request_slots(intent, names[:1], tools)
                 if s.required and s.kind != "source"]
        # a place named as a location is no destination ("I left my bag in the cafe")
        evidence = len(set(fill(slots, text, destinations=True, about=every).args)) / len(slots) if slots else 0.0
        if TARGET_TIME.search(text) and not any(s.kind in ("time", "source") for s in every):
            evidence -= 0.5  # "reschedule booking K7P2QD to 11:30": a new time it cannot take
        elif find_times(text) and every and all(s.kind == "enum" for s in every if s.required):
            evidence -= 0.5  # "put us down for the dinosaur one at quarter past twelve": no walk has a time
        if any(any(c.isdigit() for c in str(m.value)) for m in find_codes(text)) and every and \
                not any(s.kind == "code" for s in every):
            evidence -= 0.5  # "I'd rather do the space tour instead, code TK 8024": no walk takes a code
        if any(s.kind == "code" and s.required for s in every) and not OWN.search(text) and not find_codes(text):
            evidence -= 0.5  # "what time is the space tour?": nobody's booking
        return evidence

    def named_value(self, text: str, tools: Dict[str, dict]) -> Optional[Meaning]:
        """The one request whose required choice (an enum: a place) a short utterance names
        as a destination, when nothing else was understood; None if none or several."""
        if len(text.split()) > NAMED_WORDS:
            return None
        found = []
        for name in tools:
            intent = next((i for i in self.cfg.intents if i.tools == [name]), None)
            enums = [s for s in request_slots(intent, [name], tools) if s.kind == "enum" and s.required]
            if enums and fill(enums, text, destinations=True).args:
                found.append(Meaning("intent", intent.name, 1.0) if intent else Meaning("tool", name, 1.0))
        return found[0] if len(found) == 1 else None
