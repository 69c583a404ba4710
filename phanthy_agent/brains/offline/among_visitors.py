"""What visitors say among themselves next to the robot, not to it: a family member or a group
spoken to, a plan, a call, a meeting arranged, musing aloud, a child told off (TO_SOMEONE_ELSE,
read by addressee.py, which decides who an utterance is said to). Pure: a regex, no model."""

from __future__ import annotations

import re

# said to someone else: "Mum, I'm starving", "daddy look, a robot!" (not "dad needs the loo")
TO_SOMEONE_ELSE = re.compile(
    r"^\W*(?:(?:oh|hi|hey|hiya|hello|yes|yeah|yep|si|sí|ja|oui|tak|look|wow|ooh|quick|come\s+on)\W+)*(?:mum|mummy|mom|mommy|mam|dad|daddy|papa|kids|"
    r"children|guys|grandma|granny|nana|grandpa|grandad|granddad|darling|honey|sweetie|mama|mamá|papá|oma|opa|nonna|"
    r"nonno|abuela|abuelo|babcia|dziadek|mamie|papi|cherie|chérie|schatz|cariño|carino|amore|tesoro|kochanie)\b(?!\s*(?:needs|wants|is|has|says|can't|cannot|doesn't|uses|would|lost|left|dropped|forgot|"
    r"and|s|'s|uses|isn't|hasn't)\b)"
    # visitors talking among themselves or about the robot: "did you lock the car?", "shall we get the
    # bus home?", "she said Tuesday", "I told you we should've come earlier", "this robot is so weird"
    r"|\b(?:did\s+you\s+(?:remember|see|hear|bring|pack|lock|get|grab|buy|pick\s+up)\s+(?!(?:me|us|my|our)\b)|where\s+did\s+(?:you|we)\s+(?:put|leave|park)|can\s+you\s+believe|shall\s+we|we\s+should(?:'ve|"
    r"\s+have)|let'?s\s+(?!see\b)(?!not\b)(?!(?:just\s+)?(?:cancel|call\s+(?:it|the\s+\w+)\s+off)\b)(?![^.?!]*\b(?:tickets?|places|seats|book\w*)\b)|love\s+you|i\s+told\s+(?:him|her|them|you)|(?:she|he|they)\s+(?:booked|said|told|"
    r"thinks?|wants?(?!\s+to\s+know\b)|forgot)|(?:this|that|the)\s+robot(?:\s+(?:is|was)|'s)|it'?s\s+a\s+robot|hurry\s+up)\b"
    # a child or a group spoken to ("don't touch that, sweetie", "okay everyone, stay together"), a
    # call ("I'll ring you back"), who did what ("did you get the tickets or did I?"), and where
    # the others are ("she's been in there for ages", "Dave's still in the shop")
    r"|,\s*(?:sweetie|sweetheart|darling|honey|mum|mummy|mom|mommy|dad|daddy|nan|nana|nanna|gran|granny|grandma|"
    r"grandad|grandpa|kids|guys|everyone|folks|friends|team|class|boys|girls)\W*$|^\W*(?:(?:ok|okay|right|alright|come\s+on)\W+)?"
    r"(?:everyone|everybody|guys|kids|folks|people|team|gang|class|year\s+\d+)\b(?!.*\b(?:robot|can\s+you|could\s+you)\b)|"
    r"\bi(?:'ll|\s+will)\s+(?:have\s+to\s+)?(?:call|ring|phone|text|message)\s+(?:you|him|her|them)\b|\b(?:text|message|whatsapp)\s+me\s+(?:when|if|once|later)\b|\bor\s+did\s+(?:i|you|we)\b|"
    r"\b(?:she|he)(?:'s|\s+has|\s+is)\s+(?:still|been)\b(?!\s+(?:\w+\s+)?(?:lost|missing|gone|hurt|sick|ill|stuck)\b)|\b\w+'s\s+still\s+(?:in|at)\b"
    # (not after a stop: "No, cancel that, I'll sort it out myself" is said to the robot)
    r"|^(?![^.?!]*\b(?:cancel\s+(?:that|it)|scrap\s+(?:that|it)|never\s*mind|forget\s+(?:it|that)|don'?t\s+(?:worry|bother))\b)[^.?!]*\bi'?ll\s+sort\s+it\b"
    # a child told off, the robot looked at, a remark that asks for agreement ("the tour was good, wasn't it")
    r"|(?<!won't\s)(?<!wont\s)(?<!not\s)(?<!can't\s)\bstop\s+(?:pushing|fighting|shoving|hitting|kicking|running|shouting|touching|whining|moaning|nagging|crying|worrying|fussing|panicking|flapping)\b|^\W*don'?t\s+you\s+dare\b|"
    r"\blook\s+at\s+(?:the|that|this)\s+robot\b|\brobot\s+thing\b|\b(?:wasn'?t|weren'?t)\s+(?:it|they|there)\W*$|"
    # ... but a fact checked with the robot is a question ("The loos are downstairs, aren't they?")
    r"\b(?:isn'?t|aren'?t)\s+(?:it|they|there)[^\w?]*$"
    # a child's own things and family ("where's your coat gone", "where did your dad go"), a meeting arranged
    r"|\byour\s+(?:other\s+)?(?:coat|jacket|shoes?|bag|handbag|rucksack|backpack|purse|pocket|shoelaces|laces|hat|scarf|gloves?|jumper|hoodie|cardigan|hands|face|nose|teddy|"
    r"dummy|brother|sister|dad|daddy|mum|mummy|mom|mommy|nan|nana|gran|granny|grandma|grandad|grandpa)\b|"
    r"\b(?:i|we)(?:'ll|\s+will)\s+meet\s+(?:you|him|her|them)\b|\bif\s+(?:you'?re|your|you\s+are)\s+good\b"
    # a child called back, someone told no by name ("Lily, where have you gone? stay where I can see you",
    # "No, Sophie, we are not buying another dinosaur")
    # who has or left something, a meeting arranged ("who's got the packed lunch bag?", "meet you at the gift shop in ten")
    r"|\bwho'?s\s+got\s+(?:the|my|our|your)\b|^\W*who\s+left\b|^\W*(?:i'?ll\s+)?meet\s+(?:you|me|us)\s+(?:at|by|in|outside|near)\b"
    r"|\b(?:we|let'?s)\s+meet\s+(?:at|by|in|outside|near)\b|\bwhich\s+way\s+did\s+(?!(?:i|we|you)\b)\w+\s+go\b"
    # musing aloud about what is there ("I wonder how they got that skeleton through the doors",
    # "look at the size of that skull", "no way is that a real skeleton", "I bet you a fiver ...")
    r"|^\W*i\s+wonder\s+(?:how|why)\b(?![^?]*\?)|^\W*(?:wow\W+)?look\s+at\s+the\s+size\s+of\b|^\W*no\s+way\s+is\b"
    r"|^\W*i\s+bet\s+(?:you|ya)\b|\btell\s+(?:him|her|them)\s+(?:we|i|that\s+(?:we|i))\b"
    # a plan told to the others, asking nothing ("We'll do the space gallery then grab a feed",
    # "Right, tablets first, then we'll do the T. rex")
    r"|^(?![^?]*\?)(?!.*\b(?:can|could|would|will)\s+(?:you|u)\b)(?!.*\b(?:robot|please|tickets?|book\w*|places|seats|name|under|"
    r"at\s+(?:\d|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|noon|half|quarter))\b)"
    r"(?:[^.!?]*\b(?:first|then)\W+|if\b[^.!?,]*?\s+)?(?:(?:right|ok(?:ay)?|so|yes|yeah|no|nah)\W+)*"
    r"we(?:'ll|\s+will)\s+(?:just\s+)?(?:do|grab|get|try|hit|head\s+(?:to|for))\b"
    # a radio call among staff ("copy that, heading up now", "are you at the entrance yet? Over.")
    r"|\b(?:copy\s+that|roger\s+that|over\s+and\s+out)\b|[.,?!]\s*over\W*$"
    r"|\bwhere\s+have\s+you\s+(?:gone|got\s+to)\b|\bstay\s+where\s+(?:i|we)\s+can\s+see\s+you\b"
    r"|^\W*no\W+(?-i:[A-Z][a-z]+)\s*,(?<!thanks,)(?<!thank,)\s"
    # where the others are, a meeting arranged, a plan told, a call made ("yeah I'm in the dinosaur
    # bit, where are you", "she's in the gift shop I think", "I'll see you at the cafe in twenty
    # minutes", "First dinosaurs, then lunch. That's our plan.", "Hi, it's Claire from Oakfield")
    r"|\bwhere\s+are\s+(?:you|u)(?:\s+(?:now|then|guys))?\W*$|\b(?:she|he|they)(?:'s|'re|\s+is|\s+are)\s+(?:in|at|by)\s+the\b"
    r"(?![^.?!]*\b(?:lost|stuck|hurt|can'?t|cannot|take|show|help)\b)|\b(?:i|we)(?:'ll|\s+will)\s+see\s+(?:you|u)\s+(?:at|by|in|outside|near)\b"
    r"|\bthat'?s\s+(?:our|the)\s+plan\b|^\W*(?:hi|hello|hiya)\W+it'?s\s+(?!me\b)\w+(?:\s+\w+)?\s+from\b"
    # thinking aloud ("Hmm, do I fancy the dinosaur tour or not... I'll think about it", "Honestly I'm
    # not sure we've got time for a tour and lunch"), a call breaking up
    r"|^\W*(?:hmm+\W+)?(?:do|shall|should)\s+i\s+(?:fancy|bother|want)\b[^?]*\bor\s+not\b|\bi'?ll\s+think\s+about\s+it\b"
    r"|\b(?:i'?m|we'?re)\s+not\s+sure\s+(?:we|i)(?:'ve|\s+have)?\s+(?:got\s+)?(?:the\s+)?time\b|\b(?:you'?re|it'?s)\s+breaking\s+up\b"
    # a child praised ("Good walking, Ruby, well done.", "Sit, Bella, sit! Good girl.")
    r"|\b(?:well\s+done|good\s+(?:girl|boy|job|walking|listening|sitting|waiting|lad|lass))\b"
    # a call answered ("Hello, love? Yes, we're at the museum.")
    r"|^\W*(?:hello|hi|hiya)\W+(?:love|darling|babe|sweetheart|mum|dad|mate)?\W*\?\s+(?:yes|yeah|no)\b"
    r"|^\W*(?:hello|hi|hiya)\W+(?:love|darling|babe|hun|sweetheart|mum|dad|mate)\W+(?:yes|yeah|yep)\b"
    # where the caller is ("yeah um we're just in the dinosaur hall now", "Yeah I'm at the museum, it's
    # alright", "we're just by the gift shop, come and find us"), asking the robot nothing
    r"|^\W*(?:(?:hi|hiya|hello|yeah|yes|ok(?:ay)?|no|love|um|uh)\W+)*(?:we'?re|i'?m)\s+(?:just\s+)?(?:in|by|at|near|outside)\s+the\b"
    r"(?![^?]*(?:\?|\b(?:can|could|would|how|where(?!\s+are\s+(?:you|u)\b)|which|what|take|show|bring|lead|need|want|help|lost|hurt|stuck)\b))"
    # the others' tickets and money ("Has anyone got the tickets? Dave, you had the tickets", "did u
    # bring the tickets or did Ms Patel keep them", "Did you pay for the tour already", "No, your ticket
    # is in my bag"), a show of hands ("who wants to do the space tour after lunch, hands up")
    r"|\b(?:has|have|did)\s+(?:anyone|anybody|someone|somebody)\s+(?:got|grab(?:bed)?|brought|bring|seen|taken|take)\s+(?:the|my|our)\s+tickets?\b"
    r"|\b(?:you|u)\s+(?:had|have\s+got|got|brought|keep|kept)\s+the\s+tickets?\b|\bdid\s+(?:u|you)\s+(?:bring|keep|pay\s+for)\b"
    r"|\b(?:your|my|the)\s+tickets?\s+(?:is|are)\s+in\s+(?:my|your|the)\b|^\W*(?:(?:right|ok(?:ay)?|so)\W+)*who\s+(?:wants|needs)\b|\bhands\s+up\b"
    # where the others have got to ("your father's been in the toilets for twenty minutes", "was she
    # heading to the toilets?", "he's gone off to the toilets again", "Where did Priya go")
    r"|\byour\s+(?:father|mother|husband|wife|dad|mum|son|daughter|brother|sister)(?:'s|\s+has|\s+is)\s+(?:been\s+in|gone\s+(?:off|back)|still\s+in)\b"
    r"|\b(?:was|is)\s+(?:she|he)\s+(?:heading|going|off)\b|\b(?:she|he)'?s\s+gone\s+(?:off|back)\b|\bwhere'?s\s+(?:your|my|our)\s+\w+\s+got\s+to\b"
    r"|\bwhere\s+did\s+(?-i:[A-Z])\w+\s+go\b"
    # what someone said ("grandad says the hall was different", "Miss said meet at the gift shop",
    # "I said to her, I said, ...") and when the tour is, told to each other ("No, the tour's at two")
    r"|^\W*(?:(?:our|my|your)\s+)?(?:\w+\s+)?(?:says|said)\s+(?:the|that|we|it|to|meet|you)\b(?![^?]*(?:\?|\b(?:can|could|would|will)\s+(?:you|u)\b|"
    r"\bplease\b|\b(?:bring|take|show|walk|lead)\s+(?:me|us)\b))|\bi\s+said\s+to\s+(?:her|him|them)\b"
    r"|^\W*(?:(?:no|yeah|yes)\W+)?(?:the|our|my)\s+(?:\w+\s+)?tour(?:'s|\s+is)\s+at\b"
    # a plan, a hurry, a group called back, a call, a child told ("we'll do the tour next time",
    # "Come on, we'll miss the start", "Don't forget, everyone back to the dinosaur hall", "where are
    # you lot?", "I'll dial in at three", "I'm listening", "Put your phone away")
    r"|\b(?:we'?ll|we\s+will|i'?ll)\s+(?:do|see|try)\s+(?:the|a|it)\b[^?]*\bnext\s+time\b|^\W*come\s+on\W+(?:we|let'?s|you|guys|kids)\b"
    r"|^\W*don'?t\s+forget\W+(?:everyone|everybody|guys|kids)\b|\b(?:everyone|everybody)\s+back\s+to\b|\bwhere\s+are\s+(?:you|u)\s+lot\b"
    r"|\bdial\s+in\b|\bi'?m\s+listening\b|^\W*(?:[A-Z][a-z]+\W+)?put\s+(?:your|that|those|it)\b[^.?!]{0,20}\b(?:away|down)\b|^\W*excuse\s+me\s+miss\b"
    # an announcement to everyone ("attention please, the museum will close ...", "would the owner of ...")
    r"|^\W*(?:attention\s+please|ladies\s+and\s+gentlemen)\b|\bwould\s+the\s+owner\s+of\b|\bplease\s+(?:gather|proceed|make\s+your\s+way)\b"
    # an opinion or a hunch told to the others ("nah the gift shop's a total rip off", "I'm telling
    # you, the space tour was better last time", "I think the exit's back past the shop")
    r"|^\W*(?:(?:nah|honestly)\W+(?:the|that|this|it'?s|its)\b|i'?m\s+telling\s+(?:you|ya)\b)(?![^?]*\?)(?![^?]*\b(?:\d+|one|two|three|four|five|six)\s+tickets?\b)|^(?![^?]*\?)[^?]*\brip[\s-]?off\b|^\W*i\s+think\s+(?:the|it'?s|its)\b(?![^?]*\?)"
    # a booking told about, not asked for ("Our Susan booked the dinosaur tour for us", "I booked the
    # eleven o'clock one, didn't I say?", "the booking's on my phone, hang on", "the booking
    # confirmation is in my email somewhere")
    r"|(?-i:\b(?!We\b|They\b|You\b|Just\b|Already\b|Recently\b|Also\b)[A-Z][a-z]+)\s+booked\b(?![^?]*\?)|\bdidn'?t\s+i\s+(?:say|tell\s+you)\b|\b(?:booking|confirmation|code|tickets?)(?:'s|\s+is|\s+are)\s+"
    r"(?:\w+\s+)?(?:on|in)\s+(?:my|your|his|her)\s+(?:phone|email|e-mail|inbox|bag|pocket)\b(?![^?]*\b(?:can|could)\s+(?:you|u)\b)"
    # a plan and time to spare ("We'll do the dinosaur tour after lunch, alright?", "the tour's not till
    # two, we've got ages", "well do the gift shop last")
    r"|^\W*(?:we'?ll|well|we\s+will)\s+do\s+the\b[^?]*\b(?:after|later|first|last|next)\b|\bwe'?ve\s+got\s+(?:ages|(?:loads|plenty|heaps)\s+of\s+time|time\s+for\s+(?:lunch|a\s+coffee|a\s+drink|a\s+snack))\b"
    # the others asked who has something, all at once ("wait who has the tickets", "did anyone bring
    # the booking email", "Can someone grab the first aid kit off the coach?", "Coats on, everyone, ...")
    r"|\bwho\s+(?:has|'s\s+got|has\s+got)\s+the\b|\b(?:did|has)\s+(?:anyone|anybody)\s+(?:bring|brought|got|get|see|seen)\b"
    r"|^\W*(?:can|could)\s+(?:someone|somebody|anyone|anybody)\s+(?!(?:tell|help|show|take|point|direct)\b)|,\s*(?:everyone|everybody|kids|guys)\s*,"
    # a child pleading ("can we go to the space bit now can we can we can we"), a call ("Hello? Hello, Janet?")
    r"|\bcan\s+we\s+can\s+we\b|^\W*(?:hello|hi|hiya)\s*\?\s+(?:hello|hi)\b"
    # a child or a parent spoken to mid-sentence ("Thanks, Mum, I'll pay you back", "Don't touch that,
    # sweetheart, it's not for touching"), disbelief at what someone did, a booking already made and
    # nothing to worry about, a plan for lunch, one more gallery, an errand given to the others
    # ("you go and get the coffees"), their things ("Is your hearing aid switched on?", "Have you got
    # his ear defenders?"), a call or a meeting in dialect ("Ah'll text yer", "see yer in the dinosaur bit")
    r"|,\s*(?:mum|mummy|mom|dad|daddy|nan|nana|gran|granny|grandma|grandad|grandpa|sweetheart|sweetie|darling|honey)\s*,"
    r"|\bi\s+can'?t\s+believe\s+(?:you|u|he|she|they)\b"
    r"|(?:\balready\s+booked\b|\bbooked\s+(?:it|them|that)\s+already\b)(?![^?]*(?:\?|\b(?:can|could)\s+(?:you|u)\b|"
    r"\b(?:what|when|which|check|cancel|change|move|refund)\b))"
    r"|\bwe'?ll\s+(?:do|have|get)\s+(?:lunch|dinner|breakfast|coffee|a\s+coffee|cake)\b(?![^?]*\?)|^\W*come\s+on\W+one\s+more\b"
    r"|\byou\s+go\s+and\s+(?:get|grab|find|buy)\b|\bif\s+(?:you|u)\s+behave\b"
    r"|\byour\s+hearing\s+aid\b|\bhave\s+you\s+got\s+(?:his|her|their)\b"
    r"|\b(?:i|ah)(?:'ll|\s+will)\s+(?:call|ring|phone|text|message)\s+(?:ya|yer|ye)\b"
    r"|^(?!\W*(?:(?:ok(?:ay)?|right|thanks|thank\s+you)\W+)*(?:bye|goodbye|good\s*bye|cheerio|ta[\s-]*ra|farewell)\b)"
    r"[^?]*\bsee\s+(?:you|ya|yer|ye|u)\s+(?:in|at|by|outside|near)\s+the\b(?![^?]*\?)"
    r"|\bmeet\s+(?:us|me)\s+(?:by|at|in|outside|near)\s+the\b(?![^?]*(?:\?|\b(?:can|could|will|would)\s+(?:you|u)\b))"
    r"|^\W*(?:(?:hi|hiya|hello|no|yeah|yes)\W+)+(?:(?:the|our|my)\s+)?(?:\w+\s+)?tour(?:'s|\s+is)\s+at\b(?![^?]*\?)"
    # a call ("Hi, it's Mr Dawson, just letting you know we've arrived", "the signal's terrible in
    # here", "Pronto? Sì, ..."), a plan agreed ("the cafe after this, then the space bit, then home",
    # "after the space gallery we do lunch, then the gift shop, deal?"), a booking or the others told
    # about ("I booked the dinosaur tour for us, it's sorted", "we're just waiting on the others"),
    # chores shared ("I'll grab the coffees, you find us a seat"), a story told ("...and then the T.
    # rex just stared at me"), memories ("remember when the gift shop was just a table?"), the robot
    # spoken of ("I'll ask the robot in a sec"), a child looked for ("Who's got Mia?"), an
    # exclamation ("Oh, for crying out loud"), a threat sworn ("..., I swear")
    r"|\bjust\s+letting\s+(?:you|u)\s+know\b|\b(?:signal|connection|reception)(?:'s|\s+is)\s+(?:\w+\s+)?(?:terrible|bad|awful|rubbish|poor|weak|dreadful)\b(?![^?]*\?)"
    r"|^\W*pronto\b|\bthen\s+home\b|,\s*deal\s*\?\s*$|(?<!can\s)(?<!could\s)(?<!shall\s)(?<!should\s)\bwe\s+do\s+(?:lunch|dinner)\b"
    r"|\b(?:it'?s|all)\s+sorted\b(?![^?]*\?)|\b(?:we'?re|i'?m)\s+(?:just\s+)?waiting\s+(?:on|for)\s+the\s+others\b"
    r"|\bi'?ll\s+(?:grab|get)\s+the\s+\w+\s*,\s*you\b|^\W*(?:\.\.\.|\u2026)\s*and\s+then\b|^\W*and\s+then\s+(?:she|he|they)\s+said\b"
    r"|^\W*(?:do\s+you\s+)?remember\s+when\b"
    r"|\bi'?ll\s+(?:ask|tell)\s+the\s+robot\b|\bwho'?s\s+got\s+(?-i:[A-Z][a-z]+)\b"
    r"|^\W*(?:oh\W+)?for\s+(?:crying\s+out\s+loud|goodness'?\s*sakes?|god'?s\s+sake|heaven'?s\s+sake|pete'?s\s+sake)\W*$"
    r"|,\s*i\s+swear\W*$|\btrying\s+to\s+find\s+[^?]*\bon\s+the\s+map\b"
    # plans after the tour or next time, a hurry, the way a place is, a search or a text under way,
    # whose turn it is, someone pointed at, chores for later ("after the tour we're getting pies",
    # "we must hurry, the tour is in ten minutes", "no, the cafe's the other way", "let me find the
    # booking email", "whose turn is it to push the pram?", "is that the client over there?", "I'll
    # grab our coats after the speeches", "grab my coat when you go", "I booked it under your name",
    # "Honestly, twelve quid for a tour, I ask you.")
    r"|^\W*(?:(?:ok(?:ay)?|so|right|but)\W+)*after\s+the\s+(?:tour|toast|speeches|talk|show|film)\b[^?]*\b(?:we|we'?re|everyone)\b"
    r"(?![^?]*\b(?:can|could|would|will)\s+(?:you|u)\b)|^\W*next\s+time\s+we\b|^\W*(?:we|you)\s+(?:must|need\s+to|have\s+to|'?ve\s+got\s+to)\s+hurry\b"
    r"|\b(?:is|are|was|were|'s)\s+(?:back\s+)?(?:that|this|the\s+other)\s+way\b(?![^?]*\?)|\b(?:let\s+me|lemme)\s+(?:just\s+)?(?:find|text|ring|call|message|dig\s+out)\b"
    r"|^\W*whose\s+turn\b|\b(?:is|isn'?t)\s+that\s+(?:the\s+|your\s+|our\s+|my\s+)?\w+\s+over\s+there\b"
    r"|\bi'?ll\s+(?:grab|get|fetch)\s+(?:our|the|my|your)\b[^?]*\b(?:after|later|when)\b"
    r"|^(?![^.?!]*\b(?:cancel\s+(?:that|it)|scrap\s+(?:that|it)|never\s*mind|forget\s+(?:it|that)|don'?t\s+(?:worry|bother))\b)[^.?!]*\bi'?ll\s+sort\s+(?:the|that|out)\b"
    r"|\bwhen\s+(?:you|u)\s+(?:go|get\s+back|come\s+back|pass)\b|\bunder\s+your\s+name\b|\bor\s+was\s+i\s+(?:meant|supposed)\s+to\b"
    r"|,\s*i\s+ask\s+you\W*$"
    # a question that ends by calling someone by name ("how long is this tour anyway, Mark?",
    # "the tour should be free, shouldn't it, Tom?"), a bad line, a booking left to the desk or
    # explained later ("I'll go and book the space tour at the desk, you wait here", "I'll ask at
    # the desk later", "the booking's under my maiden name, I'll explain later")
    r"|^[^\d?]*(?<!\bname)(?<!\bunder),\s*(?-i:(?!Robot\b|Please\b|Thanks\b|Sir\b|Madam\b|Mister\b)[A-Z][a-z]+)\s*\?\s*$"
    r"|\bbad\s+(?:signal|line|connection|reception)\b|\b(?:i|we)(?:'ll|\s+will)\s+(?:go\s+and\s+)?(?:book|ask|sort\s+it)\b[^?]*\bat\s+the\s+desk\b"
    r"|\byou\s+wait\s+here\b|\bi'?ll\s+explain\s+later\b", re.I)
