"""A wifi network's key (issue 29): said after the network ("the wifi is hunter-7-gamma",
"wifi is KP-Guest, key is tangerine99", "... and the key's X"), after its name, quoted too
("the staff network Crew-5G is oar-lock-6610", 车库网 X 连 Y, 'wifi "Den" pw X'; a name, a
slash and its key are `remem.secrets_pairs`'s), as what to tell a guest (客人问wifi就说 X), or
as what connects or is typed (X 就能连, 连的时候输 X, 要输的是 X, "type X to connect", "what
you type is X"), words joined as one ("password belayon_belayoff"), its key also 钥匙, the
wireless also 无线, in Chinese and English; never the router's model or the network's own name
(`remem.secrets_public`; by its band, "the wifi is Barn_5G", or with networks said to be open).

    wifi_spans("the wifi is hunter-7-gamma", ...)              # hunter-7-gamma
    wifi_spans("the router is Archer-AX55", ...)               # []
    wifi_spans("the guest network Cafe-Guest is open", ...)    # []

Used by `remem.secrets_cues`.
"""

from __future__ import annotations

import re

from remem.secrets_shapes import SPEED, Lazy, excluded, first_strong, scan, typed_words, wifi_key

__all__ = ["wifi_spans"]

_WIFI_KEY = Lazy(  # "the wifi is KP-Guest and the key (on the receipt) is tangerine99"
    r"(?i)(?<![a-z])(?:key|pass(?:word|phrase|code)?|pw|密码|口令|密钥|钥匙)"  # 钥匙是 X: a key
    r"(?:\s+(?:on|in|from|at|for)\s+(?:the\s+)?[\w'’-]+)?"
    # "SSID X, key 4D8K2M9P", "key LarkspurInJune!": after a space, a digit, symbol or inner capital
    # ("key = oak-barn-19": a note's list of settings)
    # or said as the key's ("... and the key's sailandanchor")
    r"(?:\s+(?:is|was)\s+|['’]s\s+|\s*[:：=]\s*|\s+(?=[^\s,;]*[\d!@#$%^&*]|[^\s,;]+[A-Z])"
    # or words typed joined, ending the note: "SSID X, key ladderandbucket" (`_joined`)
    r"|\s+(?=[a-z]+(?:[_-][a-z]+)*\s*(?:[.,;!，。；！]|$))|(?<=密码|口令|密钥|钥匙)\s*(?:是|为)?\s*"
    r"|\s+(?=[\"“‘']))"  # or quoted, no link: 'key "marmaladecat"'
    # a quoted key is one token of a WPA key's length (8 to 63), any letters
    r"(?:[\"“‘'](?P<q>[^\s\"“”‘’']{8,63})[\"”’']|(?P<v>[^\s,;，。；]+))"
)
# "..., key hollyandivy": the key after the network's name and a comma (or the name alone:
# "wifi X password Y"), plain lower-case words typed as one or joined by "_" or "-"
# ("belayon_belayoff"); not a word about the key ("key unchanged", "password required",
# "key overleaf", "not_required")
_JOINED = Lazy(r"(?=.{8,40}$)[a-z]+(?:[_-][a-z]+)*")
_RIGHT_AFTER = Lazy(  # not "password on the blackboard"
    r"(?i)(?:[a-z]+|密码|口令)\s*(?:(?:is|was)\s+|['’]s\s+|[:：=]\s*|[是为]\s*)?"
)
_TALK = Lazy(
    r"(?:ed|ing|able|ible|tion|sion|ment|ness|ly|where|wards?|stairs|side|neath|leaf|ever|thing)$"
    r"|^(?:optional|unknown|forgotten|private|personal|different)$"
)
_NAME_BEFORE = Lazy(  # a network's name: caps, a digit; or any name quoted ('wifi "Den" pw X')
    r"\s[A-Za-z][\w.-]*[A-Z0-9_][\w.-]*\s+$|[\"“][^\"”\n]{2,32}[\"”]\s+$"
    r"|(?<![\w'’])['‘][^'’\n]{2,32}['’]\s+$"
)
_TALK_PARTS = frozenset("not see ask per via any none upon request".split())
# "the wifi pw is up-the-hill-and-down": four words or more joined, a passphrase, not a
# network's name (two or three: Cafe-Guest, Mill-Staff-5G)
_HYPHENED = Lazy(r"(?=.{12})[A-Za-z]+(?:-[A-Za-z]+){3,}")
_WIFI_IT = Lazy(  # "change the wifi before they move in — it's currently tenantwifi4417"
    r"(?i)(?<![a-z])(?:it['’]s|it\s+is)\s+(?:currently\s+|now\s+|still\s+)?(?P<v>[^\s,;]{8,40})"
)
_WIFI = Lazy(  # a router's or an SSID's key too, never the router's own name
    r"(?i)(?:(?<![a-z])(?:wi[- ]?fi|wlan|hotspot|(?P<r>ssid|router|wireless)|(?P<n>network))"
    r"(?![a-z])"
    # 车库网, 店里网络: a place's network (not 网站, 网银, 上网)
    r"|(?P<z>(?<=[\u4e00-\u9fff])(?<!上)网络?(?![站页址购友点店吧费线速盘银关格球红名])"
    r"|无线(?:网络?)?(?![电]))"  # 店里无线 X: the wireless (not 无线电, a radio), a key only
    # devices said to be on a network by its quoted name: 'the tills are on "Shop_Back", the
    # key for it is ...' (its key only, said after it)
    r"|(?P<q>(?<![a-z])(?:on|connect(?:ed|s)?\s+to|join(?:ed|s)?)\s+(?=[\"“][^\"”\n]{2,32}[\"”]))"
    # or a network's name said to be open: the sentence names networks, the wifi word unsaid
    # ("Shop_Guest is open but the staff one is Shop_Staff with ...")
    r"|(?P<o>(?<![\w-])[A-Za-z][\w.]*[_-][\w.-]+\s+is\s+open(?![a-z])))"
    # a name's dot goes on (DouYa_2.4G), and a key's "!" between words (tide!pool)
    r"(?P<rest>(?:[^.。!?！？\n]|[.!](?=\w)){0,80})"
)
_WIFI_WORDS = ("wifi", "wi-fi", "wi fi", "wlan", "hotspot", "ssid", "router", "wireless", "network",
               "网", "无线", 'on "', "on “", 'to "', "to “", 'ed "', "ed “",
               " is open")  # fmt: skip
_WIFI_LINK = Lazy(
    r"(?i)(?:\s+(?:code|login|access|key))?(?:\s+(?:here|there|now|today|currently|at\s+home)"
    r"|\s+(?:at|in|for|of|on)\s+[^:：=]{1,40}?)?\s*(?:[:=：—–]|\s(?:is|was)\s|是|为"
    r"|连|(?:就|都|直接)?说)"  # 问wifi就说 X: what a guest is told
)
_WIFI_VALUE = Lazy(
    r"(?:(?:just|still|now|simply)\s+)*(?=[\w!@#$%^&*+=~-]*[a-zA-Z!@#$%^&*+=~])"
    r"([\w!@#$%^&*+=~-]{6,40})(?![\w!@#$%^&*+=~-])"
)
# a network's name by its band ("Barn_5G", "Loft-2.4GHz"), or networks said to be open
# ("guests use Barn_Guest, which is open"): "the wifi is X" then names it, no key is given
_BAND = Lazy(r"(?i)[_-]?(?:2\.4|2|5|6)g(?:hz)?$")
_BAND_AT = Lazy(r"(?i)(?:2\.4|2|5|6)\s?g(?:hz)?(?![a-z0-9])")
_OPEN_NET = Lazy(
    r"(?i)(?:guest|network|wi-?fi|hotspot|[a-z]+[_-][\w-]+)[^.;!?\n]{0,24}?(?<![a-z])"
    r"(?:which\s+is|that\s+is|it\s+is|is|it['’]s|['’]s)\s+(?:an?\s+)?open(?:\s+network)?"
    r"(?=\s*(?:[.,;!]|$))"
)
_SLASH_NEXT = Lazy(r"\s*/\s*[^\s/]")
_WIFI_NAME = Lazy(r"(?i)name|ssid|network\s+is\s+called|called|名称|名字|叫|speed|signal|速")
_PASS_LATER = Lazy(r"(?i)pass|pw|key|密码|口令|密钥|钥匙")
# the key said as what connects: "X 就能连", 连的时候输 X, "type X to connect"; not the
# network's name ("叫 X 就能连", "pick X and you're on": said as the name)
_CONNECTS = Lazy(
    r"(?i)(?<![A-Za-z0-9_@#$%^&*+=~-])(?P<v>[A-Za-z0-9_!@#$%^&*+=~-]{6,40})\s*"
    r"(?:就能|就可以|就|才能|即可)(?:连|上网)"
    r"|连(?:接)?(?:的时候|时|上去?|的话)?\s*(?:要|得|需要)?(?:输入?|填|打)\s*(?P<w>[!-~]{6,40})"
    # what is typed, said after the network: 网是 X，要输的是 Y; "what you type is Y"
    r"|(?:要|得|需要)?(?:输入?|填|打)的(?:是|就是)\s*[:：]?\s*(?P<t>[!-~]{6,40})"
    r"|(?<![a-z])what\s+you\s+(?:type|enter|put\s+in)\s+is\s+(?P<y>[^\s,;]{6,40})"
    r"|(?<![a-z])(?:type|enter|put\s+in|use)\s+(?P<e>[^\s,;]{6,40})\s+to\s+(?:connect|get\s+on|join)"
    r"|(?<![a-z])connect(?:s|ed|ing)?\s+(?:with|using)\s+(?P<f>[^\s,;]{6,40})"
    r"|(?<![^\s,;:])(?P<g>[^\s,;]{6,40})\s+(?:gets|will\s+get)\s+you\s+(?:on(?:line)?|connected)"
)
_AS_NAME = Lazy(
    r"(?i)(?:叫|名|名字|名称|选|点|找|ssid|called|named|pick|choose|select)\s*[:：]?\s*$"
)
# a network's name (caps, a digit or a hyphen in it), then its key after a link
_NAMED_NET = Lazy(  # after a colon too, the name and its key joined by a dash: "wifi: X - Y"
    r"(?:\s*[:：])?\s*(?=[\w.-]*[A-Z0-9_-])[A-Za-z][\w.-]{2,31}"
    r"(?:\s+(?:is|was)\s+(?:now\s+|still\s+)?|\s*(?:连|用|密码是?|，\s*密码是?)\s*|\s+[-–—]\s+"
    # the name, then its key "with" it: "the staff one is Mill_Staff with oak-barn-loft"
    r"|(?P<with>\s+with\s+(?:the\s+)?(?:(?:key|pass(?:word)?)\s+)?))"
    r"(?P<v>[^\s,;，。；]{6,40})"
)
# a name, then a key "with" it, anywhere after a word of networks: "the staff one is X with Y"
_WITH_KEY = Lazy(r"(?<![\w.-])(?=[\w.-]*[A-Z0-9_])[A-Za-z][\w.-]{2,31}\s+with\s+")
_WORDS_JOINED = Lazy(r"[a-z]+(?:[_-][a-z]+){2,}")  # three words or more joined: a passphrase


def wifi_spans(text: str, low: str) -> list[tuple[int, int]]:
    """Spans of the wifi keys `text` gives (`low`: it lower-cased)."""
    out: list[tuple[int, int]] = []
    for m in scan(_WIFI, text, low, *_WIFI_WORDS):
        rest = m["rest"]
        link = _WIFI_LINK.match(rest)
        if _PASS_LATER.search(rest):  # "wifi is KP-Guest, key is tangerine99"
            out += _keys_after(text, m)
            continue
        if m["q"] is not None:
            continue  # a quoted name a device is on: its key only when a key word follows
        if (w := _with_key(text, m.start("rest"), m.end())) is not None:
            out.append(w)
            continue
        if m["o"] is not None:
            continue  # an open network named: a key only "with" a name after it
        if said := _connects(text, m.start("rest"), m.end()):
            out.append(said)
            continue
        if m["r"] is None and (named := _NAMED_NET.match(rest)) is not None:
            v = named["v"].rstrip(".!?")
            # "network Crew-5G is oar-lock-6610" (not "X - 5G-Band": its band)
            if wifi_key(v) and re.search(r"\d", v) and not _BAND_AT.match(v):
                at = m.start("rest") + named.start("v")
                out.append((at, at + len(v)))
                continue
        if m["r"] is not None or m["n"] is not None or m["z"] is not None:
            continue  # "the router is Archer-AX55": its model, not its key; a network's key only
        if (it := _WIFI_IT.search(rest)) is not None and wifi_key(it["v"].rstrip(".!?")):
            out.append((m.start("rest") + it.start("v"), m.start("rest") + it.end("v")))
            continue
        if link is None or _WIFI_NAME.search(rest):
            continue  # "wifi is Acme-Guest, password is ...": the network's name
        at = m.start("rest") + link.end()
        first = _WIFI_VALUE.match(text, at, m.end())
        if (first and _band(text, first.start(1))) or _OPEN_NET.search(rest):
            continue
        if first and _SLASH_NEXT.match(text, first.end(1)):
            continue  # "the hotspot is Pixel_7 / X": its name, then its key (`secrets_pairs`)
        if first and re.search(r"\d", first[1]) and not SPEED.match(first[1]):
            out.append(first.span(1))  # "the wifi is hunter-7-gamma"
            continue
        for a, b in first_strong(text, at, m.end(), 6, digits=8):
            # "wifi 是 Shop_2.4G": a space after 是 or a colon, then a name by its band
            if re.search(r"\d|[^\w\s-]", text[a:b]) and not _band(text, a):
                out.append((a, b))
    return out


# a key's last symbol named in words after it: part of the key, not the sentence's end
_SYMBOL_SAID = Lazy(
    r"(?i)\s*[,(]?\s*(?:with|plus|and|including|incl\.?)\s+(?:the|an?|that)\s+(?:exclamation"
    r"|question|hash|pound|dollar|at|star|asterisk|bang|full\s+stop|dot)(?:\s+(?:mark|point|sign"
    r"|symbol))?(?![a-z])"
)
_WORD_THEN_SYMBOL = Lazy(r"[A-Za-z][A-Za-z0-9]{5,39}[!?.]")


def _symbol_said(text: str, key: re.Match[str]) -> bool:
    """A word and the symbol it ends with, the symbol named after it: the key."""
    word = _WORD_THEN_SYMBOL.fullmatch(key["v"]) is not None and not excluded(key["v"][:-1])
    return word and _SYMBOL_SAID.match(text, key.end("v")) is not None


_CONTRACTION = Lazy(r"(?i)[a-z]+['’](?:t|s|re|ve|ll|d|m)")  # hasn't, isn't, it's
_WORD_AT = Lazy(r"[^\s,;，。；]+")


def _keys_after(text: str, m: re.Match[str]) -> list[tuple[int, int]]:
    """The keys said after a key word in a sentence about a network (`m`: its `_WIFI`)."""
    out = []
    # the "!" that ended the network's words goes with the key when named after it
    mark = text[m.end() : m.end() + 1] in ("!", "?", ".")
    mark = mark and _SYMBOL_SAID.match(text, m.end() + 1) is not None
    for k in _WIFI_KEY.finditer(text, m.start("rest"), m.end() + mark):
        if k["q"] is not None:  # quoted: the key, any letters, unless a word about it
            if not (excluded(k["q"]) or _TALK.search(k["q"].lower())):
                out.append(k.span("q"))
            continue
        v = k["v"].rstrip(".!?")
        if _CONTRACTION.fullmatch(v):
            continue  # "password hasn't changed": a word about the key, not it
        if _symbol_said(text, k):  # "justmarried! with the exclamation mark"
            out.append(k.span("v"))
        elif wifi_key(v) or _HYPHENED.fullmatch(v) or _joined(text, m.start(), k, v):
            out.append((k.start("v"), k.start("v") + len(v)))
        elif typed := typed_words(text, k.start("v")):  # "key is purple otter all one word"
            out.append(typed)
    return out


def _band(text: str, at: int) -> bool:
    """Whether the word at `at` is a network's name by its band (a dot goes on: X-2.4G)."""
    word = _WORD_AT.match(text, at)
    return word is not None and _BAND.search(word[0].rstrip(".!?")) is not None


def _joined(text: str, start: int, key: re.Match[str], v: str) -> bool:
    """Plain lower-case words typed as one after a key word, when the network was named
    before it with a comma ("wifi is X, key Y"): the key, unless a word about it."""
    listed = "," in text[start : key.start()] or "，" in text[start : key.start()]
    listed = listed or _NAME_BEFORE.search(text, start, key.start()) is not None  # "wifi X key Y"
    right_after = _RIGHT_AFTER.fullmatch(text, key.start(), key.start("v")) is not None
    words = re.split(r"[_-]", v)  # each part a word of the key, not talk: "not_required"
    talk = any(len(w) < 3 or w in _TALK_PARTS or _TALK.search(w) for w in words)
    return listed and right_after and _JOINED.fullmatch(v) is not None and not talk


def _with_key(text: str, start: int, end: int) -> tuple[int, int] | None:
    """A network's name, then its key after "with": digits in it or three words joined."""
    for n in _WITH_KEY.finditer(text, start, end):
        named = _NAMED_NET.match(text, n.start(), end)
        if named is None or named["with"] is None:
            continue
        v = named["v"].rstrip(".!?")
        joined = _WORDS_JOINED.fullmatch(v) and len(v) >= 12 and not excluded(v)
        if (wifi_key(v) and re.search(r"\d", v)) or joined:
            return named.start("v"), named.start("v") + len(v)
    return None


def _connects(text: str, start: int, end: int) -> tuple[int, int] | None:
    """The key said as what connects, after the network ("wifi is X, Y 就能连"), not its name."""
    for c in _CONNECTS.finditer(text, start, end):
        group = next(g for g in "vwtyefg" if c[g] is not None)
        v = c[group].rstrip(".!?")
        if wifi_key(v) and not _AS_NAME.search(text, start, c.start(group)):
            return c.start(group), c.start(group) + len(v)
    return None
