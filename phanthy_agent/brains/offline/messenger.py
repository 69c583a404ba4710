"""A request passed on for someone else ("My mum says to book the dinosaur tour", "My wife wants
to know if the car park closes with the museum", "the kids are asking if the cafe sells ice
cream"): the visitor is the messenger, the robot is asked. Pure text, no ROS.
"""

from __future__ import annotations

import re

# who sends the message: family, friends, the group ("my mother-in-law", "our teacher", "the kids")
SENDER = (r"(?:mummy|daddy|mommy|mum|dad|mom|nana|granny|grandma|grandad|grandpa|(?:my|our|the)\s+(?:little\s+|older\s+|younger\s+|big\s+)?(?:mum|mom|mummy|mommy|mam|ma|dad|daddy|father|mother|"
          r"parents|husband|wife|partner|friend|friends|sister|brother|son|daughter|gran|granny|grandma|grandmother|"
          r"grandad|grandpa|grandfather|nan|nana|nanna|uncle|auntie|aunty|aunt|teacher|kids|children|boss|cousin|"
          r"mother-in-law|father-in-law|colleague|other\s+half|missus|fella|boyfriend|girlfriend))")
# ... and how the message is passed on ("says", "wants to know if", "told me to ask whether")
PASSED_ON = re.compile(
    rf"^\W*(?:(?:so|um+|uh+|er+|erm|oh|and|hi|hello|hey|sorry|excuse\s+me|ok(?:ay)?)\W+)*{SENDER}\s+"
    r"(?:says?|said|asks?|asked(?:\s+me)?|told\s+me|tells\s+me|wants?\s+to\s+know|would\s+like\s+to\s+know|"
    r"wondered|wonders|(?:is|are)\s+asking|(?:is|are)\s+wondering|(?:has|have)\s+asked\s+me)"
    r"(?:\s+(?:me\s+)?to\s+ask(?:\s+you)?)?(?:\s*,)?(?:\s+(?:that|(if|whether)))?\s+(?:to\s+)?(?=\w)", re.I)


def past_the_messenger(text: str) -> str:
    """What is passed on, without who sent it ("My mum says to book the dinosaur tour and put it
    under Baker" -> "book the dinosaur tour and put it under Baker"), a question passed on as one
    ("My mum wants to know if you've got a disabled toilet" -> "I wonder if you've got a disabled
    toilet"); "" when nothing is passed on."""
    found = PASSED_ON.match(text)
    if found is None:
        return ""
    rest = text[found.end():]
    return f"I wonder {found.group(1).lower()} {rest}" if found.group(1) else rest
