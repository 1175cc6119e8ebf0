"""The words the phone listens for when a round is said aloud (static/js/speech.js), in the
page's language: card names, numbers, "penalty"…, handed to the page with the round form."""

from __future__ import annotations

from django.utils.translation import gettext_lazy

# What the table may say of a round, in the page's language, for the parser of a round said
# aloud (static/js/speech.js): each kind of word, its phrases separated by "|" (a translation
# may give more or fewer). Number words are the parser's own.
SPEECH_WORDS = {
    # the caller ("Zoé calls"); the variants' call words (Tamalou, Cabo…) are added to these
    "call": gettext_lazy("calls|called|calling|caller|call"),
    # penalty points said after the word ("Marc penalty five")
    "penalty": gettext_lazy("penalty|penalties|fine"),
    # penalty points said before the words ("Marc five penalty points")
    "penaltyAfter": gettext_lazy("penalty points|penalty point|points penalty|point penalty"),
    "minus": gettext_lazy("minus|negative"),
    "half": gettext_lazy("and a half|and half|a half|half|point five|point 5"),
    # Tamoul's counter-call ("Marc counter")
    "counter": gettext_lazy("counter|counters|countered|counter-called"),
    # a call or a penalty given to the name said next ("Cabo by Zoé", "penalty of two for Marc")
    "by": gettext_lazy("by|for"),
    # the number said next replaces the one before ("Léa twelve, no, thirteen")
    "correction": gettext_lazy("no|sorry|I mean|rather|actually"),
}


# What the phone says of a round said aloud ({…} is filled in on the phone).
SPEECH_TEXTS = {
    "listening": gettext_lazy("Listening… say each name and its number."),
    "heard": gettext_lazy("Heard: {list}."),
    "called": gettext_lazy("{name} called"),
    "countered": gettext_lazy("{name} counter-called"),
    "penalty": gettext_lazy("penalty {points} for {name}"),
    "unknown": gettext_lazy("Not understood: {words}."),
    "noNumber": gettext_lazy("No number for {names}."),
    # a hand total said beyond what a hand of the game can reach ("Léa 340")
    "outOfRange": gettext_lazy("Out of range for a hand (from {lowest} to {highest}): {list}."),
    # within those, yet no hand's total: a half where the game has none ("Léa 12.5")
    "notAHand": gettext_lazy("Not a possible hand total in this game: {list}."),
    "penaltyUnread": gettext_lazy("No penalty points for {names}."),
    "check": gettext_lazy("Check, then save."),
    "nothing": gettext_lazy("Nothing heard: tap the microphone and say the round again."),
    "refused": gettext_lazy("The microphone is not allowed here: type the round instead."),
    "offline": gettext_lazy("Listening needs a connection: type the round instead."),
    "stop": gettext_lazy("Stop listening"),
}
