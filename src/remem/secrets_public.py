"""Values a text gives that are public by what it says of them (issue 29): a company's
helpline, a wifi network's name (it is broadcast), a code made to be shared (a game's
share code, a friend code), a number given as an example of a format, a folder's or a
file's name, passwords named as the weak ones nobody should use, a serial, a device's IMEI or a
reference (`remem.secrets_refs`: "ref HLF-NL-22-01453", a part's number, a make and model with its
size or price), a business's 0800 or 400 number to call, a number to quote when ordering, quoted
lettering a thing shows ('the plaque reads "Best Team 2024"'), a code its user sets and none
given ("padlocks you set your own code on": the sentence), a phrase announced to staff with
what it means, a key's ID or fingerprint, the place a secret is kept, and who holds a code not
given ("the padlock code is with the key holder", "ask the caretaker for the code": the
clause), round numbers in turn, the steps of a scale ("grits: 1000 then 6000"), a rule about a
code with no code in it ("never write the safe code on the board": the clause), the short
number a scam text is reported to ("forwarded it to 7726"), in Chinese and English.

    public_spans("The helpline on the back of the card is 0345 600 2290")   # the number
    public_spans("Our wifi is called Hollybush_5G, ask me for the key")     # Hollybush_5G
    public_spans("最常见的弱密码还是 123456 和 password，大家别用")          # both values
    public_spans("保险箱是得力 4078，高 45 厘米")                             # 4078
    public_spans('"Mr Frost to reception" means clear the ice')             # the phrase
    public_spans("The wifi password is Hollybush_5G")                        # []

`remem.secrets` drops a rule's hit inside one of these spans and lets its model read the
text with them blanked, so a secret said beside a public value is still found.
"""

from __future__ import annotations

import re

from remem.secrets_access_words import ACCESS_RE
from remem.secrets_nouns import SAFE_WORD_FOR
from remem.secrets_refs import SECRET_WORD, references
from remem.secrets_shapes import Lazy, scan, sentence

__all__ = ["blanked", "public_spans"]

# A public line: "the helpline ... is 0345 600 2290", 客服热线 95588
_LINE = Lazy(
    r"(?i)(?<![a-z])(?:help\s?line|hot\s?line|customer\s+(?:service|care|support)(?:\s+line)?"
    r"|support\s+line|freephone|toll[ -]free(?:\s+number)?|switchboard"
    # a business's line for the public: "Booking line for passengers: 01632 960 552", a
    # bank's "fraud line"
    r"|(?:booking|reservations?|enquir(?:y|ies)|information|info|ticket(?:ing)?|sales|advice"
    r"|appointments?|fraud|emergency|lost[ -]cards?|out[ -]of[ -]hours|24[ -]hour|complaints?"
    # what a firm answers its customers on: "the renewals line is ...", "breakdown line"
    r"|renewals?|breakdown|billing|returns|repairs?|orders?|accounts|payments?)"
    r"\s+line|(?:enquir(?:y|ies)|information|reservations?|appointments?|complaints?"
    r"|out[ -]of[ -]hours|24[ -]hour)\s+number"  # "the enquiries number is 0345 ..."
    # a business's own number, to call it: "the alarm company's number is 0345 ...", "the
    # locksmith firm's phone number" (a company's number is no code)
    r"|(?:company|firm|provider|supplier|contractor|agency)['’]?s?\s+(?:phone\s+|contact\s+)?number)"
    r"(?![a-z])"
    r"|客服(?:热线|电话)?|服务热线|热线|咨询电话|官方电话"
)
_PHONE = Lazy(r"\+?\d(?:[ -]?\d){6,14}(?![\d])")
# A number said with the hours it is answered: a business's line ("0345 600 2290, open 9 to
# 5", "9am-5pm weekdays", 早9点到晚5点); a code is never open
_HOURS_AFTER = Lazy(
    r"(?i)[^.;!?\n]{0,30}?(?:(?<![a-z])(?:open|opens|lines\s+open|staffed|answered|manned)\s+"
    r"(?:from\s+)?\d{1,2}(?:[:.]\d{2})?\s*(?:am|pm)?\s*(?:till|til|to|until|-|–)\s*\d{1,2}"
    r"|(?<![\d:])\d{1,2}(?:[:.]\d{2})?\s*(?:am|pm)\s*(?:-|–|to|till)\s*\d{1,2}(?:[:.]\d{2})?\s*(?:am|pm)"
    r"|(?<![a-z])(?:mon(?:day)?\s*(?:-|–|to)\s*(?:fri|sat)|weekdays|24/7|24\s+hours)(?![a-z])"
    r"|(?:早上?|上午)\s*\d{1,2}\s*点(?:半)?\s*(?:到|至|-)\s*(?:晚上?|下午)\s*\d{1,2}\s*点"
    r"|工作日|全天|24\s*小时)"
)
# A business's non-geographic number (0800, 0345, 1-800, 1300, China's 400 and 800) said as one
# to call: "call 0800 … to get it unlocked", 打 400-… 解锁 (a service desk, not a code)
_SERVICE_NUMBER = Lazy(
    r"(?<![\d+])(?:0(?:800|808|3[0-7]\d|84[345]|870)[ -]?\d{3}[ -]?\d{3,4}"
    r"|1[ -]?8(?:00|88|77|66|55|44|33)[ -]?\d{3}[ -]?\d{4}|[48]00[ -]?\d{3}[ -]?\d{4}"
    r"|1[38]00[ -]?\d{3}[ -]?\d{3})(?![ -]?\d)"
)
_CALL = Lazy(
    r"(?i)(?<![a-z])(?:call|ring|phone|dial|contact)(?![a-z])|打\s*$|拨|致电|电话|热线|联系"
)
# A network's name, said as its name: "our wifi is called X", "WiFi 名字改成了 X", "SSID: X"
_SSID = Lazy(
    r"(?i)(?:wi-?fi\s+is\s+(?=\S+[,;][^.!?\n]{0,30}?(?:key|password))"  # "Wi-Fi is X; the key"
    # a network renamed or switched: "the WiFi is now X instead of the old one" (public only
    # with its key withheld: "same password as before")
    r"|wi-?fi\s+(?:is\s+now|(?:has\s+)?(?:changed|switched|moved)\s+(?:over\s+)?to)\s+"
    r"|wi-?fi\s*(?:现在|已经)?"  # WiFi是X，密码…; WiFi 现在是 X，密码跟以前一样
    r"(?=(?:是|改成了?|换成了?|改为)\s*[\w.-]+\s*[,，][^。！？\n]{0,12}?密码)"
    # or the name right after the word, a pause after it: "wifi Mill_88, the key changes weekly"
    r"|(?:wi-?fi|wlan|hotspot)(?=\s*[A-Za-z0-9][\w.-]{1,31}\s*[,，;；])"
    r"|(?:wi-?fi|wlan|network|hotspot|ssid)(?:['’]s)?\s*(?:name\s*)?(?:is\s+)?(?:now\s+)?"
    r"(?:called|named|renamed\s+(?:to\s+)?|name\s+is|ssid\s+is|[:：]|名字|名称|名叫|叫"
    r"|网名|网络名称?))"  # WiFi 网名 X: the network's name, broadcast
    # a name may be Chinese, digits joined (面馆二楼_02); it ends before a key's word
    r"\s*(?:改成了|改成|改为|换成了?|是|为|叫)?\s*[\"“「]?"
    r"(?P<v>[A-Za-z0-9\u4e00-\u9fff](?:(?!密码|口令)[\w.-]){1,31})"
    # or the name first: "Barn_2G is the wifi name", "X is our guest network's name"
    r"|(?<![\w.-])(?P<f>[A-Za-z0-9][\w.-]{1,31})\s+is\s+(?:the|our|my|their|his|her)\s+"
    r"(?:[\w'’-]+\s+)?(?:wi-?fi|wlan|network|hotspot)(?:['’]s)?\s+(?:name|ssid)(?![a-z])"
    # or "the Wi-Fi network is X", said of a network (its key named nowhere in the text)
    # (not "called": "the wifi network is called X" names X above)
    r"|(?:wi[- ]?fi|wireless)\s+network\s+is\s+(?:now\s+)?[\"“]?(?!(?:called|named)\s)"
    r"(?P<n>[A-Za-z0-9][\w.-]{1,31})"
    # in Chinese: "Bookshop_2F 是二楼的WiFi", "X 是店里的无线网名字"
    r"|(?<![\w.-])(?P<z>[A-Za-z0-9][\w.-]{1,31})\s*是(?:[^，,。！!？?\n]{0,8}?的)?\s*"
    r"(?:wi-?fi|wlan|无线网|热点)(?:名字|名称|名)?(?=\s*(?:[。！!，,]|$))"
)
# A text that names no key at all: a network's name said as the name is all it gives
_KEY_WORD = Lazy(r"(?i)key|pass|\bpw\b|\bpwd\b|密码|口令|密钥")
_KEY_WITHHELD = Lazy(  # the key is not given: asked for, unchanged, on the router
    # asked of anyone, by name too: "ask Lee for the key", "ask the landlord for the password"
    r"(?i)ask\s+(?:[\w'’-]+\s+){0,3}?for\s+(?:the\s+)?(?:wi-?fi\s+)?(?:key|password|pass)(?![a-z])"
    r"|密码没变|密码不变"
    r"|密码(?:还是)?(?:跟|和|同)?(?:原来|以前|之前|上次|老的)(?:的)?(?:一样)?"
    r"|(?:key|password)\s+(?:is\s+)?(?:unchanged|the\s+same|still\s+the\s+same|(?:has\s+)?not\s+changed"
    r"|hasn['’]t\s+changed|as\s+before)"
    # "same password as before", "the same key as the old network": unchanged, not given
    r"|same\s+(?:wi-?fi\s+)?(?:key|password|pass)\s+as\s+(?:before|ever|usual|the\s+old|last)"
    r"|密码[^。！!\n]{0,8}?(?:当面|私下|见面)|(?:key|password)\s+(?:is\s+)?on\s+the\s+(?:router"
    r"|fridge|card|sticker)|(?:key|password)[^.!?\n]{0,30}?in\s+person"
    # where it is kept, not what it is: "the password is on the noticeboard in the hall"
    # (said short too: "the password's on the card behind the bar")
    r"|(?:key|password)(?:\s+is|['’]s)\s+(?:on|in|under|behind|inside|above|by)\s+(?:the|a|my|our|his|her"
    r"|their)\s"
    # asked of someone there: 密码问前台要, "ask at the bar for the password"
    # or the asking alone, ending the clause: 密码请问前台。
    r"|密码[^。！!\n]{0,6}?(?:问|找|向)[\u4e00-\u9fff]{1,6}?(?:要|拿|问|(?=\s*(?:[。！!，,]|$)))"
    r"|ask\s+(?:at\s+)?(?:the\s+)?(?:front\s+desk|reception|bar|counter|staff)\s+for\s+"
    r"(?:the\s+)?(?:key|password|pass)"
    # on a label, or typed in by its owner: "the password is printed under the router",
    # "she'll type the password in herself", 密码贴在收银台下面
    r"|(?:key|password)\s+(?:is\s+)?(?:printed|written|stuck|taped)\s+(?:on|under|below|behind|inside)"
    r"|type\s+(?:the\s+)?(?:key|password)\s+in\s+(?:him|her|them|my|your|our)sel(?:f|ves)"
    r"|密码[^。！!\n]{0,4}?(?:贴在|写在|印在|见)"  # 密码见路由器背面: "for the key, see ..."
    r"|密码在[^。！!\n]{1,12}?(?:贴着|写着|印着)"  # 密码在收银台下面贴着: where it is, not what
    # or the place alone, ending the clause: 密码在配电箱门背后, 密码就在路由器底下
    r"|密码(?:就|都)?在[\u4e00-\u9fff]{1,12}?(?:上面?|里面?|下面?|底下|后面|背后|背面|旁边|边上)"
    r"(?=\s*(?:[。！!，,；;]|$))"
    # not given, or not to be asked for: 没给密码, 密码没说, "didn't give us the password"
    r"|(?:没|没有|不)(?:给|告诉)[\u4e00-\u9fff]{0,3}?密码|密码[^。！!\n]{0,4}?(?:没给|没说|别问)"
    r"|(?:didn['’]?t|did\s+not|won['’]?t|never)\s+(?:give|tell|share)\s+(?:\w+\s+)?(?:the\s+)?"
    r"(?:key|password)"
    # or there is none: 不用密码, 没有密码, 免密码; "no password needed", "an open network"
    r"|(?:不用|不需要|无需|没有|没|无|免|不设)密码|密码[^。！!\n]{0,3}?(?:没有|没设|不用|不需要)"
    r"|(?<![a-z])no\s+(?:key|password)(?:\s+(?:needed|required))?(?![a-z])"
    r"|(?:doesn['’]?t|does\s+not|don['’]?t)\s+(?:need|have|use)\s+a\s+(?:key|password)"
    r"|(?<![a-z])(?:open|password[- ]free)\s+network"
    # changed so often none is given: 密码每个月都改, "the password changes every week" (unless
    # this week's is said after it: "..., this week it's X")
    r"|(?:密码[^。！!\n]{0,4}?(?:每个?[天日周月晚]|天天|经常|隔[几两三]?[天周])[^。！!\n]{0,3}?(?:换|变|改)"
    r"|(?:key|password)\s+(?:changes|is\s+changed|gets\s+changed|rotates)\s+(?:every|each|daily"
    r"|weekly)|change\s+(?:the|their)\s+(?:key|password)\s+(?:every|each|daily|weekly))"
    r"(?![^。！!.;\n]{0,16}?(?:这|今|本|现在|目前|(?<![a-z])(?:this|today|now|currently|it['’]s)(?![a-z])))"
    # or someone will tell it: 密码到时候会发给你, "they'll give you the password"
    r"|密码[^。！!\n]{0,6}?会(?:告诉|给|发给|说给)|(?:will|['’]ll)\s+(?:tell|give|text|send)"
    r"\s+(?:you|us|him|her|them)\s+the\s+(?:wi-?fi\s+)?(?:key|password)"
)
# Where a secret is kept, not what it is: "the seed words are kept in a fireproof box at my
# sister's", 密码锁在抽屉里 (the place's words, a safe's among them, are no code)
_KEPT = Lazy(
    r"(?i)(?<![a-z])(?:pass(?:word|phrase|code)?|pin|code|key|phrase|seed|word|combination|combo"
    r"|token|credential|mnemonic)s?(?:\s+(?:for|to|of|on)\s+[^.,;:!?\n\d]{1,40}?)?\s+(?:is|are)"
    r"\s+(?:kept|stored|locked(?:\s+away)?|held|filed|written\s+down)\s+(?:in|at|inside|with"
    r"|under|behind|on)\s+(?P<v>(?:the|a|an|my|our|his|her|their|your)\s[A-Za-z'’ -]{2,60}?)"
    r"(?=\s*(?:[.,;!?]|$))"
    r"|(?:密码|助记词|私钥|口令|密钥)[^。，,；\n\d]{0,8}?[存放锁藏写记抄]在(?P<z>[\u4e00-\u9fff]{2,20})"
    # or who holds it, or whom to ask, the code not given: the whole clause ("the padlock code
    # is with the key holder — ring ...", "ask the caretaker for the alarm code", 密码在老王那里)
    r"|(?P<w>(?<![a-z])(?:pass(?:word|code)?|pin|code|combination|combo)s?\s+(?:is|are)\s+(?:only\s+)?"
    r"(?:with|held\s+by|kept\s+by|known\s+(?:only\s+)?(?:to|by)"
    # or where it is, no value: "the code is in the team chat, not here", "is on the whiteboard",
    # written or noted there perhaps ("the safe code is noted in the shift log")
    r"|(?:(?:written|noted|jotted|scribbled)(?:\s+down)?\s+)?"
    r"(?:in|on|inside|under|behind|above|pinned\s+(?:to|on)|stuck\s+on)(?=\s+(?:the|a|an|my|our"
    r"|his|her|their|your)\s))\s+[A-Za-z'’ -]{2,40}?"
    r"|(?<![a-z])ask\s+[A-Za-z'’ -]{1,30}?\s+for\s+(?:the\s+|a\s+)?(?:[\w'’-]+\s+){0,3}?"
    r"(?:pass(?:word|code)?|pin|code|combination|combo)s?)(?=\s*(?:[.,;!?]|\s[-–—]\s|$))"
    r"|(?P<y>(?:密码|口令)(?:在|由)[\u4e00-\u9fff]{1,8}?(?:那里|那儿|那|手上|手里|保管))"
)
_CLAUSE = Lazy(r"[.!?;,:，。！？；：\n]")
_MADE_UP = Lazy(r"[a-z][A-Z]")  # "kept in the vault as CorrectHorse": a value, not a place
_SHARED = Lazy(  # a code made to be handed out: "crosshair share code is X", 分享码 X
    r"(?i)(?<![a-z])(?:share|sharing|friend|referral|creator|crosshair|invite\s+link)"
    r"\s+codes?(?:\s+(?:is|was|for\s+\w+\s+is))?\s*[:：]?\s*(?P<v>[\w-]{4,60})"
    r"|(?:分享码|好友码|推荐码|邀请链接)\s*(?:是|为|[:：])?\s*(?P<z>[\w-]{4,60})"
)
_EXAMPLE = Lazy(  # a number shown as an example of a format: 比如 110105 就是北京朝阳区
    r"(?i)(?:比如|例如|譬如|举个例子|for\s+example|for\s+instance|e\.g\.)[,，:：\s]*(?:说\s*)?"
    r"(?P<v>\d{2,8})(?!\d)(?=\s*(?:就是|是指|代表|表示|指|means|=|stands\s+for))"
)
_FOLDER = Lazy(  # a place's name: "folder 2024_Clients", "drive D", 文件夹 Q3_报表; not what
    # a place "is": "the password for the shared drive is X"
    r"(?i)(?<![a-z])(?:(?:sub)?folder|director(?:y|ies)|dir|file\s?name|drive|path|文件夹|目录)"
    r"(?:\s+(?:named|called))?\s*[:：]?\s*[\"“「]?(?P<v>[\w.-]*[\w](?:[/\\][\w.-]*\w)*)"
)
# A key's public name: a PGP key's ID, a fingerprint, a public key ("publish it on the site");
# what signs or logs in stays secret, and an access key's ID is half of a credential
_KEY_ID = Lazy(
    r"(?i)(?<![a-z])(?<!access\s)(?<!secret\s)(?:key\s+(?:id|fingerprint)|fingerprint"
    r"|public\s+key)(?![a-z])|公钥(?:指纹)?|密钥指纹|密钥\s?ID"
)
_KEY_ID_VALUE = Lazy(
    r"\s*(?:is|was|是|为|[:：])?\s*"
    r"(?P<v>(?:0x)?[0-9A-Fa-f]{2,40}(?:(?: {1,2}|:)[0-9A-Fa-f]{2,4}){0,19})"
    r"(?![\w-])"
)
# A value the text itself calls public: "...，这个对外公开没事", "it's public, fine to share"
_SAID_PUBLIC = Lazy(
    r"(?i)对外公开|可以公开|是公开的|公开没事|不是秘密|不算秘密|(?<![a-z])(?:it['’]?s|is|that['’]?s"
    r"|they['’]?re|are)\s+(?:public|not\s+(?:a\s+)?secret)|(?:fine|ok(?:ay)?|safe)\s+to\s+share"
    # a number to quote when ordering or calling is given out: "account 88213, quote it"
    r"|(?<![a-z])quote\s+(?:it|this|that|them|the\s+(?:number|ref(?:erence)?))(?![a-z])"
    r"|报(?:这个|上|一下)?(?:号码|编号|账号|户号)"
)
_ANY_NUMBER = Lazy(r"[A-Za-z0-9-]*\d[A-Za-z0-9-]*(?:[ -]\d+)*")
_WEAK = Lazy(  # the weak passwords everyone is told not to use
    r"(?i)(?<![a-z])(?:weak(?:est)?|common(?:est)?|worst|popular|guessable|default|banned"
    r"|most\s+(?:common|used|popular))\s+passwords"
    r"|(?:最常见|常见|最常用|最弱|弱|简单)的?(?:弱)?密码"
)
_WEAK_TALK = Lazy(  # why the sentence names them: a warning or a list
    r"(?i)(?<![a-z])(?:don['’]?t|do\s+not|never|avoid|stop|still|like|such\s+as|include|are|were"
    r"|top|list)(?![a-z])|别用|不要用|避免|禁止|不能用|还是|包括|比如|例如|排行|榜"
)
_WEAK_VALUE = Lazy(r"[!-~]{4,20}")
_TURN = Lazy(  # where the list ends and someone's own password may begin
    r"(?i)[;；]|(?<![a-z])(?:but|while|whereas|mine|my|our)(?![a-z])|而|但|我的|我们的"
)


def _weak(text: str, low: str) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for m in scan(_WEAK, text, low, "passwords", "密码"):
        start, end = sentence(text, m.start())
        if _WEAK_TALK.search(text, start, end) is None:
            continue
        if "my " in low[start:end] or "我的" in text[start:end]:
            continue  # "my weak passwords are ...": one person's, said as theirs
        turn = _TURN.search(text, m.end(), end)
        out += [
            v.span() for v in _WEAK_VALUE.finditer(text, m.end(), turn.start() if turn else end)
        ]
    return out


def _said_public(text: str, low: str) -> list[tuple[int, int]]:
    """The numbers before a cue that says they are public, in a sentence naming no
    password, PIN or code (those are secrets however they are described)."""
    out: list[tuple[int, int]] = []
    hints = ("公开", "秘密", "public", "secret", "share", "quote", "报")
    for m in scan(_SAID_PUBLIC, text, low, *hints):
        start, _ = sentence(text, m.start())
        if SECRET_WORD.search(text, start, m.start()) is None:
            out += [n.span() for n in _ANY_NUMBER.finditer(text, start, m.start())]
    return out


# A phrase said with what it means: a signal to staff ("Mr Frost to reception" means clear
# the ice, 「三号门有货」表示…), announced aloud to be heard, not a key to anything
_SIGNAL = Lazy(
    r"(?i)[\"“「『](?P<v>[^\"”」』\n]{3,60})[\"”」』]\s*(?:(?:means|meant|stands\s+for|signals"
    r"|is\s+(?:the\s+)?(?:signal|call|cue)\s+(?:for|to))(?![a-z])|表示|意思是|代表|意味着)"
)
_SIGNAL_NOT = Lazy(  # a password, a safe word or a thing's code is a secret whatever it means
    r"(?i)pass|safe\s?word|(?<![a-z])(?:pin|key|(?:door|gate|alarm|access|entry|lock|safe"
    r"|wi-?fi)\s+code)(?![a-z])|密码|口令|暗号|安全词|门禁"
)
_PHRASE = Lazy(r"[A-Za-z]+\s+[A-Za-z]+|[\u4e00-\u9fff]{3}")  # words announced, not a token


def _signals(text: str, low: str) -> list[tuple[int, int]]:
    out = []
    for m in scan(_SIGNAL, text, low, "mean", "stand", "signal", "call", "cue", "表示", "意思",
                  "代表", "意味"):  # fmt: skip
        start, end = sentence(text, m.start())
        said_of = text[start:end]  # a family's code word proves who is calling: a secret
        if _SIGNAL_NOT.search(said_of) or SAFE_WORD_FOR.search(said_of):
            continue
        if _PHRASE.search(m["v"]) and not re.search(r"\d{3}", m["v"]):
            out.append(m.span("v"))
    return out


# The words a thing shows, quoted: an engraving, a sign, a banner, a cake ('the plaque reads
# "Best Team 2024"', 'sign saying "Back in 10"', 蛋糕上写“生日快乐”): lettering for all to see
_SHOWN = Lazy(
    r"(?i)(?P<w>[a-z]+)\s+(?:(?:should|will|must|to|would)\s+)?(?:reads?|reading|say(?:s|ing)?)"
    r"\s*[:,]?\s*[\"“「『](?P<v>[^\"”」』\n]{3,60})[\"”」』]"
    r"|(?<![a-z])(?:engraved|inscribed|printed|embroidered|etched|stamped)\s+with\s*[:,]?\s*"
    r"[\"“「『](?P<e>[^\"”」』\n]{3,60})[\"”」』]"
    r"|(?:刻|写|印|绣)(?:上|着|的字?是|成)\s*[\"“「『](?P<z>[^\"”」』\n]{2,30})[\"”」』]"
)
_NETWORK = Lazy(r"(?i)wi-?fi|wlan|router|network|hotspot|ssid|无线|路由|热点")
_SPEAKER = Lazy(r"(?i)i|he|she|they|we|you|who|[a-z]*one|[a-z]*body|person|guy|man|woman")
_MADE_UP_PART = Lazy(r"(?=[^\s-]*[A-Za-z])(?=[^\s-]*\d)[^\s-]{5,}|\d{5,}")  # not "12s", "2024"
_WORD = Lazy(r"[^\W\d_]{2,}")  # lettering in words: two of them, or Chinese


def _shown(text: str, low: str) -> list[tuple[int, int]]:
    """Quoted lettering a thing shows (not what a person says), in words, nothing made up in
    it, in a sentence naming no secret or lock."""
    out = []
    for m in scan(_SHOWN, text, low, "read", "say", "engrav", "inscrib", "print", "embroider",
                  "etch", "stamp", "刻", "写", "印", "绣"):  # fmt: skip
        group = next(g for g in "vez" if m[g] is not None)
        if m["w"] is not None and (_SPEAKER.fullmatch(m["w"]) or m["w"][0].isupper()):
            continue  # 'Tom says "..."', 'she said "..."': speech may pass a secret on
        start, end = sentence(text, m.start())
        said = m[group]
        if any(p.search(text, start, end) for p in (SECRET_WORD, ACCESS_RE, _NETWORK)):
            continue  # a router's sticker shows its key
        worded = len(_WORD.compiled.findall(said)) >= 2 or re.search(r"[\u4e00-\u9fff]{2}", said)
        if worded and not _MADE_UP_PART.search(said):
            out.append(m.span(group))
    return out


# A code its user sets, none given: "the padlocks you set your own 4-digit code on", "a PIN
# you choose yourself", 密码可以自己设: the whole sentence, when no value is in it
_OWN_CODE = Lazy(
    r"(?i)(?<![a-z])(?:set|choose|pick|program(?:me)?|make\s+up|create)s?\s+(?:your|their|his|her"
    r"|my|our)\s+own\s+(?:[\w-]+\s+){0,2}?(?:code|pin|pass(?:word|code)?|combination|combo)s?"
    r"|(?:code|pin|pass(?:word|code)?|combination|combo)s?\s+(?:that\s+)?(?:you|they|users?|owners?"
    r"|buyers?|customers?|guests?)\s+(?:can\s+)?(?:set|choose|pick|program)\s+(?:yourself|themselves"
    r"|himself|herself|on\s+arrival)"
    r"|(?<![a-z])(?:user|self|owner)[- ]set\s+(?:[\w-]+\s+)?(?:code|pin|combination)s?"
    r"|(?:密码|组合)(?:可以|能|要)?(?:自己|自行)(?:设|定|改)|(?:自设|自定义|自己设的?)密码"
)
_LENGTH_OR_COUNT = Lazy(  # "4-digit", "6 characters", 6位: a code's length; "3 padlocks": a count
    r"(?i)\d{1,2}[- ]?(?:digits?|characters?|letters?|numbers?|位)(?![a-z])|(?<![\d.,])\d{1,2}"
    r"(?=\s*(?:(?!(?:left|right|then|and|to|clockwise)\b)[a-z]{3,}|[个把只台套]))"  # not a turn
)


def _own_codes(text: str, low: str) -> list[tuple[int, int]]:
    out = []
    for m in scan(_OWN_CODE, text, low, "own", "set", "choose", "pick", "program", "自", "密码"):
        start, end = sentence(text, m.start())
        rest = _LENGTH_OR_COUNT.compiled.sub(lambda n: " " * len(n[0]), text[start:end])
        if not _GIVES.search(rest, m.end() - start) and not re.search(r"\d", rest):
            out.append((start, end))  # the thing, the code's length: nothing to keep secret
    return out


# Round numbers in turn are steps of a scale, not a code keyed in pieces: a grit, a speed, a
# heat, a dose ("1000 then 6000", "80, 120, 240", 先400再1000), unless the sentence names a
# code or a lock and its turns ("the safe: 30 then 10 then 20")
_ROUND_STEPS = Lazy(
    r"(?i)(?<![A-Za-z0-9_.,/£$€¥-])[1-9]\d{0,4}0(?:\s*(?:,\s*)?(?:(?:and\s+)?then|followed\s+by|→|->|>|/"
    r"|,|、|再|然后)\s*(?:(?:up\s+)?to\s+)?[1-9]\d{0,4}0){1,5}(?![\w.,/-]?\d)"
)
_STEPS_NOT = Lazy(
    r"(?i)(?<![a-z])(?:combination|combo|dial|turn|left|right|clockwise|spin|twist)|[左右转]"
)


def _round_steps(text: str, low: str) -> list[tuple[int, int]]:
    out = []
    joins = ("then", "follow", ",", "、", "/", ">", "→", "再", "然后")
    for m in scan(_ROUND_STEPS, text, low, *joins):
        start, end = sentence(text, m.start())
        named = SECRET_WORD.search(text, start, end) or ACCESS_RE.search(text, start, end)
        if not (named or _STEPS_NOT.search(text, start, end)):
            out.append(m.span())
    return out


# A clause that says where a thing is and nothing more, no digit, no made-up word in it
_LOCATED = Lazy(
    r"\s*(?:[A-Z][a-z'’-]*|[a-z'’-]+)(?:\s+[a-z'’-]+){0,8}?\s+(?:is|are)\s+(?:by|at|in|on|under"
    r"|behind|beside|next\s+to|inside|outside|near|round|around)\s+[a-z'’ -]{1,40}[;,]\s*"
)
_WHERE = ("is in ", "is on ", "are in ", "are on ", "is inside", "is under", "is behind",
          "is above", "pinned", "stuck on", "written", "noted", "jotted", "scribbled")  # fmt: skip


def _kept(text: str, low: str) -> list[tuple[int, int]]:
    """Where a secret is kept, or who holds it (then the whole clause that says so, the thing
    it opens too: the text gives no value there)."""
    out = []
    kept = ("kept", "stored", "locked", "held", "filed", "written down", "在", "with", "known")
    for m in scan(_KEPT, text, low, *kept, *_WHERE, "ask"):
        start, end = m.span(m.lastgroup or 0)
        if m["w"] is not None or m["y"] is not None:
            first = sentence(text, start)[0]
            before = list(_CLAUSE.finditer(text, first, start))
            start = before[-1].end() if before else first
            if _LOCATED.fullmatch(text, first, start):  # "the key safe is by the door; the code
                start = first  # is in the team chat": where the thing is, where its code is
        if not _MADE_UP.search(text, start, end):
            out.append((start, end))
    return out


# A rule about a secret, no value: "never write the safe code on the board", "don't tell anyone
# the alarm PIN", 别把密码写在白板上 (the whole clause, no digit in it)
_RULE_ABOUT = Lazy(
    r"(?i)(?<![a-z])(?:never|don['’]?t|do\s+not|must\s+not|mustn['’]t|should\s+not|shouldn['’]t"
    r"|not\s+to)\s+(?:ever\s+)?(?:write|share|post|put|leave|say|text|e-?mail|send|give(?:\s+out)?"
    r"|tell|read\s+out|stick|display|show|print|save|store|reuse)(?:\s+(?:it\s+)?down)?"
    r"\s+(?:[A-Za-z]+\s+){0,2}?(?:the|your|our|my|their|his|her|any|a|an)\s+(?:[A-Za-z'’-]+\s+){0,3}?"
    r"(?:code|pass(?:word|code|phrase)?|pin|combination|combo)s?(?![\w'’-])"
    r"(?:\s+(?:on|in|to|with|anywhere|down|again|out|near|where|for|over|by|into|inside|under"
    r"|online|here|there)(?![a-z])[^.;:!?\n\d]{0,50}?)?(?=\s*(?:[.,;!?]|\s[-–—]\s|$))"
    r"|(?:别|不要|不能|禁止|切勿|千万别)把?[\u4e00-\u9fff]{0,8}?(?:密码|口令|验证码)"
    r"[\u4e00-\u9fff]{0,12}?(?:写|贴|发|告诉|说|给)[\u4e00-\u9fff]{0,12}(?=\s*(?:[。，！？,!?]|$))"
)
_GIVES = Lazy(r"(?i)\d|[:=：]|(?<![a-z])(?:it['’]?s|is|was|are)(?![a-z])|是|为")
# The number a scam or a spam text is forwarded or reported to is a public short number
# ("forwarded it to 7726", 转发到12381), no PIN
_FORWARDED = Lazy(
    r"(?i)(?<![a-z])(?:forward(?:ed|ing|s)?|report(?:ed|ing|s)?)\s+(?:(?:it|them|this|that"
    r"|(?:the|a)\s+(?:[\w-]+\s+){0,2}?(?:text|message|sms|e-?mail|scam)s?)\s+)?(?:on\s+)?to\s+"
    r"(?P<v>\d{3,6})"
    r"(?=\s*(?:[.,;!?)]|$))|(?:转发|举报)(?:到|给|至)\s*(?P<z>\d{3,6})(?!\d)"
)


def _rules(text: str, low: str) -> list[tuple[int, int]]:
    """A rule about a secret with no value in it, and a scam's reporting number."""
    out = []
    rules = ("never", "n't", "n’t", " not ", "别", "不", "禁止", "切勿")
    for m in scan(_RULE_ABOUT, text, low, *rules):
        if not _GIVES.search(text, m.end(), sentence(text, m.start())[1]):
            out.append(m.span())  # not "don't share the wifi key, it's X": the value after it
    out += [m.span(m.lastgroup or 0) for m in scan(_FORWARDED, text, low, "forward", "report",
                                                       "转发", "举报")]  # fmt: skip
    return out


_DIGITS8 = Lazy(r"\d(?:[ -]?\d){7}")


def _answered(text: str) -> list[tuple[int, int]]:
    """A phone's number with the hours it is answered after it, in a sentence naming no
    secret before it: a line to call, not a code."""
    out = []
    for m in _PHONE.finditer(text):
        start, _ = sentence(text, m.start())
        long_enough = sum(c.isdigit() for c in m[0]) >= 8
        if long_enough and _HOURS_AFTER.match(text, m.end()):
            if not SECRET_WORD.search(text, start, m.start()):
                out.append(m.span())
    return out


def public_spans(text: str, low: str) -> list[tuple[int, int]]:
    """Spans of the values `text` says are public (`low`: it lower-cased)."""
    out: list[tuple[int, int]] = []
    for m in scan(_LINE, text, low, "help", "hot", "customer", "support", "free", "switch", " line",
                  " number", "客服", "热线", "电话"):  # fmt: skip
        _, end = sentence(text, m.start())  # the number the line is given, not a PIN after it
        line = _PHONE.search(text, m.end(), end)
        if line is not None and line.start() - m.end() <= 40:
            out.append(line.span())
    if _DIGITS8.search(text):
        out += _answered(text)
    for m in scan(_SERVICE_NUMBER, text, low, "0"):  # each holds a 0
        if _CALL.search(text, sentence(text, m.start())[0], m.start()):
            out.append(m.span())
    for m in scan(_SSID, text, low, "wifi", "wi-fi", "wi fi", "wlan", "network", "hotspot", "ssid"):
        named_first = m["v"] is None  # "X is the wifi name", "X 是二楼的WiFi", "network is X"
        if _KEY_WITHHELD.search(text) is not None or (named_first and not _KEY_WORD.search(text)):
            out.append(m.span(next(g for g in "vfnz" if m[g] is not None)))
    shared = ("share", "sharing", "friend", "referral", "creator", "crosshair", "invite link")
    for m in scan(_SHARED, text, low, *shared, "分享码", "好友码", "推荐码", "邀请链接"):
        out.append(m.span("v") if m["v"] is not None else m.span("z"))
    out += [m.span("v") for m in scan(_EXAMPLE, text, low, "比如", "例如", "譬如", "例子",
                                          "example", "instance", "e.g.")]  # fmt: skip
    out += _weak(text, low) + references(text, low) + _said_public(text, low)
    out += _signals(text, low) + _shown(text, low) + _own_codes(text, low)
    out += _kept(text, low) + _round_steps(text, low) + _rules(text, low)
    for m in scan(_KEY_ID, text, low, "key id", "fingerprint", "public key", "公钥", "密钥"):
        v = _KEY_ID_VALUE.match(text, m.end())
        if v is not None and len(re.sub(r"[\s:]|^0x", "", v["v"])) >= 8:
            out.append(v.span("v"))
    folders = ("folder", "director", "dir", "file", "drive", "path", "文件夹", "目录")
    out += [m.span("v") for m in scan(_FOLDER, text, low, *folders)]
    return out


def blanked(text: str, spans: list[tuple[int, int]]) -> str:
    """`text` with each span cut out, for the model to read what is left."""
    for start, end in sorted(spans, reverse=True):
        text = text[:start] + text[end:]
    return text
