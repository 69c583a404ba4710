"""The visitor's words as they are written down, read plainly for matching.

A recognizer or a kiosk's typist writes hesitations ("erm"), terms of endearment ("thanks, love"),
text speak ("wat r ur functions") and British and Irish speech as said ("Can yer help us wi' owt?").
`normalized` spells them out for matching only: the arguments are read from what was said.
Pure: no ROS, no model.
"""

from __future__ import annotations

import re

from .values import plain

# a term of endearment said to the robot ("what are your opening times, pet?", "thanks, love"):
# "pet" named a pet shop, elsewhere
ENDEARMENT = re.compile(r"(?:,\s*|\s+)(?:pet|petal|love|duck|hen|chuck|mate|pal|dear|my\s+dear)\s*(?=[,.!?]|$)", re.I)
# a hesitation ("hang on erm actually don't bother", "uh a booking for Nakamura"): no word of the request
HESITATION = re.compile(r"(?<![\w'-])(?:u+h+m*|u+m+|e+r+m+|e+r+)(?![\w'-])[,.]*\s*", re.I)

# what a kiosk's typists write for common words ("wat r ur functions", "pls", "2moro")
TEXT_SPEAK = {"u": "you", "r": "are", "ur": "your", "ya": "you", "pls": "please", "plz": "please",
              "thx": "thanks", "ty": "thank you", "wat": "what", "wot": "what", "wats": "what's",
              "wen": "when", "whr": "where", "wer": "where", "wheres": "where's", "whats": "what's", "b4": "before", "2day": "today",
              "2moro": "tomorrow", "2morrow": "tomorrow", "tmrw": "tomorrow", "2nite": "tonight", "nvm": "never mind",
              "gr8": "great", "cya": "see you", "im": "I'm", "dont": "don't", "cant": "can't",
              "wanna": "want to", "gonna": "going to", "gimme": "give me", "lemme": "let me",
              "abt": "about", "tix": "tickets", "pic": "picture", "pics": "pictures", "n": "and",
              "msg": "message", "bc": "because", "cuz": "because", "coz": "because", "rn": "right now",
              # British and Irish speech as it is written down ("Can yer help us wi' owt?", "What can ye
              # dae?", "Tek us t' caff", "Where's the lav?", "Am ah allowed tae take photies?")
              "ye": "you", "yer": "you", "youse": "you", "owt": "anything", "nowt": "nothing", "summat": "something",
              "dae": "do", "d'ye": "do you", "d'ya": "do you", "wi'": "with", "tae": "to", "t'": "to the", "tek": "take",
              "gerrus": "get us", "oot": "out", "caff": "cafe", "lav": "toilet", "lavvy": "toilet", "bogs": "toilets",
              "netty": "toilet", "netties": "toilets", "photies": "photos", "bairn": "child", "bairns": "children",
              "awright": "alright",
              # Australian, New Zealand and South African words ("Show me to the dunny", "this arvo")
              "dunny": "toilet", "dunnies": "toilets", "arvo": "afternoon", "brekkie": "breakfast", "kiddies": "children"}

# what a recogniser writes for a word in a noisy hall ("toy lets", "can sell my tickets", "good buy",
# "never mine", "re book"): read as the word meant (checked on whole words; no single-word homophone
# that is a word of its own, like "tanks")
RECOGNIZER_SLIPS = {"toy lets": "toilets", "toy let": "toilet", "can sell my": "cancel my", "counsel my": "cancel my",
                    "good buy": "goodbye", "never mine": "never mind", "re book": "rebook", "re schedule": "reschedule",
                    "or deo": "audio", "opening ours": "opening hours", "lost prop a tee": "lost property",
                    "good mourning": "good morning", "in trance": "entrance"}
TEXT_SPEAK.update(RECOGNIZER_SLIPS)
# a visitor's politeness in their own language, said among English words ("Refund bitte, code ...",
# "Trois billets ..., s'il vous plait", "Arrivederci, have a nice day"): read as the English word
# (accents are gone by then: "tschuss", "adios")
FROM_ABROAD = {
    "please": ["bitte", "por favor", "s'il vous plait", "s'il te plait", "per favore", "per piacere", "prosze",
               "alstublieft", "lutfen", "kripya"],
    "thanks": ["danke", "dankeschon", "danke schon", "merci", "merci beaucoup", "gracias", "muchas gracias", "grazie",
               "grazie mille", "arigato", "arigatou", "domo arigato", "shukriya", "bedankt", "dank je", "spasibo",
               "dankie", "baie dankie", "ngiyabonga", "enkosi", "chur", "go raibh maith agat", "kamsahamnida", "gamsahamnida",
               "xie xie", "xiexie", "shukran", "obrigado", "obrigada", "dziekuje", "tack", "takk", "dank u"],
    "goodbye": ["arrivederci", "au revoir", "tschuss", "tschus", "auf wiedersehen", "sayonara", "totsiens", "ka kite ano",
                "ka kite", "hamba kahle", "slan", "annyeonghi gyeseyo", "annyeonghi gaseyo", "zaijian", "ma'a salama",
                "tot ziens", "doei", "hej da", "adeus", "ciao ciao"],
    "hello": ["hola", "bonjour", "hallo", "namaste", "buongiorno", "buenos dias", "guten tag", "dzien dobry",
              "konnichiwa", "kia ora", "sawubona", "heita", "molo", "dumela", "annyeonghaseyo", "annyeong haseyo",
              "ni hao", "nihao", "marhaba", "ola", "dia dhuit", "moin", "hoi", "hej", "servus"],
    # stops, waits and what can you do, from visitors who switch languages for a word or two
    "stop": ["arrete", "arretez", "basta", "fermati", "ruko", "ruk jao", "stopp"],
    "never mind": ["laisse tomber", "rehne do", "chhodo", "lascia stare", "lascia perdere", "olvidalo", "dejalo"],
    "cancel that": ["annule ca", "annulez ca", "cancelalo", "annulla"],
    "wait": ["attends", "attendez", "espera", "aspetta"],
    "what can you do": ["que puedes hacer", "cosa sai fare", "tu sers a quoi", "kya kar sakte ho", "kya kya kar sakte ho",
                        "que sais-tu faire", "was kannst du"],
    "tickets": ["billets", "entradas", "boletos", "biglietti", "bilety"],
    "ticket": ["billet", "biglietto", "boleto"],
}  # (the intents' own patterns read "obrigada", "tchau tchau", "hasta luego" ... as they are)
TEXT_SPEAK.update({said: english for english, words in FROM_ABROAD.items() for said in words})
_TEXT_SPEAK = re.compile(r"(?<![\w'-])(" + "|".join(sorted(TEXT_SPEAK, key=len, reverse=True)) + r")(?![\w'-])", re.I)


_ELONGATED = re.compile(r"([a-z])\1{2,}", re.I)  # "thank youuu", "sooo cool"
_DIGIT_WORD = re.compile(r"\b([24])\s+(?=the\b)")  # "take me 2 the giftshop", "tickets 4 the tour"


def normalized(text: str) -> str:
    """For matching only (the arguments are read from what was said): without accents ("café"
    is the examples' "cafe") and with text speak spelled out ("wat r ur functions")."""
    text = _DIGIT_WORD.sub(lambda m: "to " if m.group(1) == "2" else "for ", plain(text))
    text = _ELONGATED.sub(lambda m: m.group(1) * (2 if m.group(1).lower() in "eolst" else 1), text)
    return _TEXT_SPEAK.sub(lambda m: TEXT_SPEAK[m.group(1).lower()], text)


# a stammer as a recognizer writes it ("c-c-can I book", "st-st-stop", "the c-code's"): the word's
# start said again before the word; and a letter of a code said twice ("k-k-x four four seven one")
_STAMMER = re.compile(r"(?<![\w'-])([a-z]{1,3})-(?=\1[a-z'-])", re.I)
_LETTERS_STAMMERED = re.compile(r"(?<![\w'-])[a-z0-9](?:-[a-z0-9])+(?![\w'-])", re.I)


def _letters(found: "re.Match") -> str:
    said = found.group(0).split("-")
    if not any(c.isalpha() and c.lower() == p.lower() for p, c in zip(said, said[1:])):
        return found.group(0)  # spelled out, no stammer: "Kayleigh with a K-A-Y"
    # a letter said again is the stammer; a digit said again is the code's ("4-4-0-9")
    return " ".join(c for i, c in enumerate(said) if i == 0 or c.isdigit() or c.lower() != said[i - 1].lower())


def unstammered(text: str) -> str:
    """The words without the stammered starts before them ("c-c-can" -> "can"), a code's letters
    said apart once ("k-k-x" -> "k x"); the arguments are read from this too."""
    text = _LETTERS_STAMMERED.sub(_letters, text)
    while (plainer := _STAMMER.sub("", text)) != text:
        text = plainer
    return text
