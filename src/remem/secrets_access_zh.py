"""Codes that open things, said in Chinese (issue 29): a verb of opening then the keys
(进门按 4821#, 开锁输入 0619), a lock, box or door that "is" or was "set to" its code (锁是
4-0-8-2, 密码锁设的 0-3-9), a lock and its digits after a pause (那把锁，零二二八), a
code keyed in parts (先输47再输19, 前面 41 后面 92), a stand-in code (临时码九五二七), a
code said by its count after what it pays or opens (付款的app，照旧那六位：604913), a
remote paired to a door by its keys (重新对码的话按 3927), a code keyed where a till, a bank's
USB key or a login asks for one (退菜要授权，输 5588 就行; U盾插上要输 135246), or a payment its
six digits (付款的时候要输 861205), an alarm set or unset by its keys (撤防：先按 8352), a lock's
code said as its number (挂锁的号码是六八零四, 门的锁，号码是一五九七), or by its count first
(车棚的锁是四位数的，8350; three digits by a lock or a box only), a door's or its remote's 码
after a colon (车库门遥控器在工作间：码 3390), a padlock's or a
combination lock's three wheels right after it, a pause perhaps, or after 密码 (冰柜挂锁零六零,
工具包上那把小锁，六二八, 挂锁 密码二四七), an
alarm's code right after it (仓库报警器 七二九一).

    zh_open_spans("车棚挂锁五七二零", ...)          # the span of 五七二零
    zh_open_spans("门禁是 2019 年装的", ...)        # []

Each rule wants a thing that locks or a verb of opening, and digits of a code's shape;
a year, a time (开门时间), a price or a size after the digits (ZH_UNIT) makes them
ordinary. Used by `remem.secrets_access`.
"""

from __future__ import annotations

import re

from remem.secrets_access_words import ZH_DOOR
from remem.secrets_last import TIME, YEAR
from remem.secrets_shapes import ZH_DIGITS, Lazy, scan, sentence

__all__ = ["ZH_UNIT", "ZH_WHEN", "zh_open_spans"]

# the key that ends a code, said after its digits: 7306 再按井号, 3691 再按#, 0417 按确认键
_ZH_CONFIRM = (
    r"(?:\s*[，,]?\s*(?:然后|再|最后)?(?:加|按|摁|点|带)(?:一?下)?\s*(?:井号|井字|[#＃]|星号|[*＊]"
    r"|确认|确定|开锁|(?i:ok))键?)?"
)
_ZH_OPEN = Lazy(  # 进门按 4821#, 开锁输入 0619, 行李箱密码锁设的 0-3-9
    r"(?:开[门锁柜箱]|开保险|解锁|进门|进楼|门禁|开机|锁屏|取件|进小区|进院|进单元|进大门|回家"
    r"|进入?(?:工程|维修|调试|管理员?|设置|后台)(?:模式|菜单)"  # a machine's service mode
    r"|(?<![核校])对码|配对"  # a remote paired to a shutter or a gate: 重新对码的话按 3927
    r"|撤防|布防)"  # an alarm set or unset by its keys: 撤防：先按 8352
    r"[^。，,；;\n]{0,10}?(?:按|输入?|摁|敲|用|是|为)\s*"  # 门禁按 1 号键再按 2580
    r"(?P<v>[*#]?\d(?:[ #*-]?\d){2,11}#?)(?!\d)"
    r"|(?:门禁|门|锁|柜|箱)[^。，,；;\n\d]{0,6}?(?:输入?|按|摁|敲)\s*"
    r"(?P<x>[*#]?\d(?:[ #*-]?\d){2,11}#?)(?!\d)"
    # 卷帘门，遥控坏了就按 7788: a clause between the door and the keys, four digits or more
    # (an alarm unset or set, then its keys after a pause: 报警器撤防，按 8352)
    r"|(?:门禁|门|锁|柜|箱|撤防|布防)[^。；;\n\d]{0,6}?[，,][^。，,；;\n\d]{0,8}?(?:输入?|按|摁)\s*"
    r"(?P<c>[*#]?\d(?:[ #*-]?\d){3,11}#?)(?!\d)"
    r"|(?:门|锁|柜|箱)[^。，,；;\n\d]{0,4}?(?:设的|设成|设为|设置成|设置为|改成|改为|换成|设了"
    r"|[改换]了[，,]\s*(?:现在|新的?))"  # 锁改了，新的是七七三零: changed, then the new one
    rf"(?:是|了|成)?\s*(?P<w>[*#]?\d(?:[ #*-]?\d){{2,11}}#?(?!\d)|[{ZH_DIGITS}]{{4,8}})"
    # 锁是 4-0-8-2, 门锁是爷爷生日 196208: a lock "is" its code
    # 警报是 3886, 键盘：1986 (a keypad's, on a wall): four digits or more (报警器是 110 联网的)
    r"|(?:警报器?|报警器|键盘)(?:上|的)?\s*(?:是|为|[:：])\s*"
    r"(?P<k>[*#]?\d(?:[ #*-]?\d){3,11}#?)(?!\d)"
    # 储物柜是 X: any locker or box "is" four digits or more, ending the clause (not 音箱是
    # 230箱, a count; not 储物柜：203, its own number); all or also of them: 柜子全是 X, 也是 X
    # or one's own compartment of it: 更衣柜我那格是 X, 柜子里她的那个是 X
    r"|(?:(?<![冰书货电])柜子?(?![台员])|(?<![冰电邮信纸音])箱子?)(?:上|的)?"
    r"(?:(?:里|中)?[我你他她]的?[那这]?一?[格个间])?\s*(?:全都|全|都|也|还)?(?:是|为)\s*"
    rf"(?P<b>\d{{4,8}}|[{ZH_DIGITS}]{{4,8}})(?=\s*(?:[，,。；;！!]|$))"
    r"|(?:门锁|密码锁|挂锁|锁|保险柜|保险箱|钥匙箱|钥匙盒|密码箱|" + ZH_DOOR + r")(?:上|的)?"
    r"\s*(?:(?:就|也|还)?是|为|[:：]|密[吗马玛])\s*"  # 密吗 3908: 密码 typed as its homophone
    rf"(?:(?![{ZH_DIGITS}])[\u4e00-\u9fff]{{1,8}}?"  # 爷爷生日, not the code's first digit
    r"(?:(?<=尾号|尾数|生日|年份|号码)\s*[，,])?\s*)?"  # 老板手机尾号，5819: a source, a pause
    rf"(?P<y>[*#]?\d(?:[ #*-]?\d){{2,11}}#?(?!\d)|[{ZH_DIGITS}]{{3,}}(?![{ZH_DIGITS}个位号]))"
    # 钥匙箱还是老样子，0416; 那把锁，零二二八; 门锁 一九九零: a lock (or a door), a pause, digits
    r"|(?:门锁|密码锁|挂锁|锁|保险柜|保险箱|钥匙[箱盒]|密码[箱盒]|"
    + ZH_DOOR
    + r"(?![店诊票户面牌号口]))"
    r"(?:[\u4e00-\u9fff]{0,6}?[，,\s]\s*"
    rf"(?P<s>\d{{4,8}}(?![\d.:-])|\d(?: \d){{2,7}}(?![\d.:-])|[{ZH_DIGITS}]{{4,}})"
    # ... or right after it, the digits said: 车棚挂锁五七二零
    # (the key that confirms it may follow, then the clause ends: 门锁 3691 #，...)
    # (any lock's digits with the hash key after them: 指纹锁3382#)
    rf"|(?P<n>[{ZH_DIGITS}]{{4,8}}|(?<=门锁|挂锁)\d{{4,8}}|\d{{4,8}}(?=\s*[#＃])))"
    r"(?=\s*[#＃]?" + _ZH_CONFIRM + r"\s*(?:[，,。；;！!]|$))"
    # 更衣室柜子 三七一九: any cupboard or box, then its digits said one by one
    # 颜料柜还是老样子，八八一三: a few words between; 钥匙柜：四位数，一二三四 (its count first)
    rf"|(?:柜子?|箱子?|盒子?)(?![台员])[\u4e00-\u9fff]{{0,6}}?[，,：:\s]\s*"
    rf"(?:[三四五六八]位数?(?:字|码)?\s*[，,：:]\s*)?(?P<g>[{ZH_DIGITS}]{{4,8}})"
    r"(?=\s*(?:[，,。；;！!]|$))"
    # ... in digits when said unchanged: 钱箱还是老数，4471 (not 还是老价钱，1250: what it costs)
    r"|(?:(?<![冰书货电])柜子?(?![台员])|(?<![冰电邮信纸音])箱子?|盒子?)(?:的|里的?)?(?:密码|码)?(?:还是|照旧|没变|没换|没改)"
    r"[^。，,；;\n\d价钱费尺重]{0,4}[，,：:\s]\s*(?P<o>\d{4,8})(?=\s*(?:[，,。；;！!]|$))"
    # 支付那六位是 902614: a count of digits, then them
    r"|(?:支付|付款|解锁|开机|锁屏|门(?![牌店诊票面号])|锁)[^。，,；;\n\d]{0,6}?[三四六八3468]位(?:数字|数)?(?:是|为|[:：])\s*"
    r"(?P<p>\d(?: ?\d){2,7})(?!\d)"
    # 大门：先输47再输19: a code keyed in two parts (an alarm's too: 报警系统，先输38再输72)
    r"|(?:门禁|门|锁|柜|箱|警报|报警)[^。；;\n\d]{0,6}?先(?:输入?|按|摁)\s*"
    r"(?P<t>\d{2,4}\s*[，,]?\s*(?:再|然后)(?:输入?|按|摁)\s*\d{2,4})(?!\d)"
    # 门锁：前面 41 后面 92 (a code in halves); 柜子7号的码 5521 (码 alone, a locker's)
    # (an alarm's too, its digits spaced: 报警器，前两位是3 6，后两位0 5)
    r"|(?:门禁|门|锁|柜|箱|警报|报警)[^。；;\n\d]{0,6}?前(?:面|半|两位)(?:是|为)?\s*"
    # ... the second half after who knows it: 后两位问老王，是 08
    r"(?P<h>\d(?: ?\d){1,3}\s*[，,]?\s*(?:中间(?:是|为)?\s*\d{2,4}\s*[，,]?\s*)?"  # 中间 15
    r"后(?:面|半|两位)(?:[^。；;\n\d]{0,8}?(?:是|为))?\s*\d(?: ?\d){1,3})(?!\d)"
    r"|(?:柜|箱|锁|门禁)[^。，,；;\n]{0,6}?的码\s*(?:是|为|[:：])?\s*"
    r"(?P<m>\d{4,8})(?!\d)"
    # 门禁卡丢了，临时码九五二七: a stand-in code for the lock's key
    r"|(?:门禁|门|锁|柜|箱)[^。；;\n\d]{0,10}?(?:临时|备用)码\s*(?:是|为|[:：])?\s*"
    rf"(?P<r>\d{{4,8}}|[{ZH_DIGITS}]{{4,8}})(?![\d{ZH_DIGITS}])"
)
ZH_UNIT = Lazy(
    r"\s*(?:寸|号|款|型|层|楼|室|栋|个|把|斤|块|元|年|月|日|天|米|点|以后|以前|之后|之前|cm|mm|kg"
    r"|宽|高|长|深|厚|毫米|厘米|度|瓦|克)"
)
ZH_WHEN = Lazy(r"时间|日期|时候|几点|费用|价格|电话")
# A thing that locks (a box, a cupboard, a room kept locked), then its digits right after and
# nothing else in the clause: 工具间七三一九。 钥匙箱的 4 0 8 1，(not 仓库 2019 年, 柜台 3 号)
_ZH_THING_CODE = Lazy(
    r"(?:钥匙[盒箱柜]|保险[柜箱]|密码[锁箱]|[挂门]锁|锁|柜子?|箱子?|盒子?|库房|仓库|储物间|储藏室"
    # an alarm's panel, its digits after it: 店里报警器 七二九一 (not a smoke or gas alarm's)
    r"|(?<!烟雾)(?<!烟感)(?<!火灾)(?<!燃气)(?<!消防)(?:报警器|警报器|报警主机)"
    r"|[冷冻车金酒药]库"  # a store kept locked: a cold store, a garage, a vault
    r"|杂物间|工具间|机房|档案室|器材室|锁屏|屏幕锁)的?\s*[:：]?\s*"  # a phone's lock screen too
    rf"(?P<v>[{ZH_DIGITS}](?: ?[{ZH_DIGITS}]){{3,7}}|\d(?: ?\d){{3,7}})"
    r"(?=" + _ZH_CONFIRM + r"\s*(?:[，,。；;！!]|$))"
    # a lock's wheels are three, said one by one: 冰柜挂锁零六零, 抽屉锁 九零四 (not 开锁, 换锁:
    # a locksmith's work); a padlock's, a combination lock's or a bike lock's in digits: 挂锁 062
    # (said digit by digit, spaced: 钱箱锁 三 八 一)
    # (a pause after it too: 工具包上那把小锁，六二八)
    rf"|(?:(?<![开修换配连封上加])锁的?\s*[:：，,]?\s*(?P<w>[{ZH_DIGITS}](?: ?[{ZH_DIGITS}]){{2}})"
    # (or a thing that holds, its lock: 冷柜锁 927, 抽屉锁 318; not a price, 门锁100)
    rf"|(?:[挂码车]|(?<=[柜箱屉])|(?<=[柜箱]子))锁的?\s*[，,]?\s*(?P<x>\d{{3}}))"
    r"(?=\s*(?:[，,。；;！!]|$))"
)
# A lock named, then 密码 and three digits or more: 仓库挂锁 密码二四七, 柜子的锁，密码是 381
# (a lock's wheels; not 密码三位数, 密码错了三次: the digits come right after 密码); its own
# number said first, then its lock's code: 更衣柜 12 号，锁码 503
_ZH_LOCK_KEY = Lazy(
    r"(?:锁|柜|箱|" + ZH_DOOR + r"(?![牌店诊票面号]))"  # a door, not a door plate's or a shop's
    r"[^。；;\n\d]{0,8}?(?:\d{1,4}\s*号[^。；;\n\d]{0,4}?)?"
    # or the code that opens it: 储物箱 15 号，开箱码 3829 (开柜码, 开门码); its remote's, or a
    # bare 码 after a colon: 车库门遥控器在工作间：码 3390 (not 收款码, 扫码: a code of its own)
    r"(?:密码|(?<![开换修配])锁码|开[箱柜门]码|遥控器?的?码|(?<=[:：])\s*代?码)\s*(?:是|为|[:：])?\s*"
    rf"(?P<v>\d{{3,8}}|[{ZH_DIGITS}]{{3,8}})(?=\s*(?:[，,。；;！!]|$))"
)
# A code said by its count after what it pays or opens, a clause between perhaps: 付款的app，
# 照旧那六位：604913 (the digits as many as said; not 后四位 or 尾号四位, part of a number,
# nor 六位数, a six-figure sum)
_ZH_COUNTED = Lazy(
    r"(?:支付|付款|收款|收钱|付钱|转账|钱包|银行|手机|(?<![A-Za-z])(?i:app)(?![A-Za-z])|解锁|开机"
    r"|锁屏|登录|密码|门|锁|柜|箱)[^。；;\n\d号]{0,16}?(?<![后末尾前])(?P<n>[四五六七八九4-9])位"
    r"(?:数字|密码|码)?(?!数)\s*(?:是|为|[:：])?\s*(?P<v>\d(?: ?\d){2,8})(?!\d)"
)
# A lock said to be a code of N digits, then them after a pause: 车棚的锁是四位数的，8350 (a
# lock's wheels may be three; a sum "收了六位数" is no lock's)
_ZH_COUNT_FIRST = Lazy(
    r"(?:密码|门(?![牌店诊票面号])|(?P<lock>锁|柜|箱))[^。；;\n\d号，,]{0,12}?(?:是|为)"
    r"(?P<n>[三四五六七八九3-9])位数字?的?\s*[，,：:]\s*"
    rf"(?P<v>\d(?: ?\d){{2,8}}(?!\d)|[{ZH_DIGITS}]{{3,9}}(?![{ZH_DIGITS}]))"
)
# A code keyed where a till, a bank's USB key or a login asks for it, no lock named: 退菜要
# 授权，输 5588 就行; 网银的U盾，插上要输 135246 (a word of authorising, logging in or a
# security key before it in the sentence; 输了 is "lost", a count or a sum is no code)
_ZH_AUTH = Lazy(
    r"授权|登录|登陆|验证|网银|(?i:u盾|ukey|usb\s?key)|优盾|加密狗|令牌|操作员|管理员|主管"
    r"|(?<![核校])对码|配对"  # a remote paired to a door: 要对码，按两下再输 5590
    r"|插[上进入到]"  # a USB key plugged in asks for its PIN: K宝插上输 135246
    r"|启动|开机"  # a machine or an app asks for it as it starts: 收银机启动要输 5512
)
_ZH_PAY = Lazy(r"付款|支付|付钱|转账|扫码付|取款|取钱")
_ZH_KEYED = Lazy(
    r"(?:[要得先再就]|需要)?(?:输入?|敲|摁)(?!了)\s*(?:的是|是|[:：])?\s*(?P<v>[*#]?\d{4,8}#?)(?!\d)"
    r"(?!\s*(?:份|张|次|件|位|条|笔|单|人|分|秒|台|吨|克|页|行|字|遍|转|瓦|伏))"
)
# A lock's code said as its number: 挂锁的号码是六八零四, 门的锁，号码是一五九七, 挂锁的号是 3391
# (a lock has no number of its own but its code; not a locksmith's, 开锁的号码, nor a chain's)
_ZH_LOCK_NUMBER = Lazy(
    r"(?<![开修换配连封])锁(?:的)?\s*[，,]?\s*(?:号码?|数字)\s*(?:是|为|[:：])?\s*"
    rf"(?P<v>\d{{4,8}}|[{ZH_DIGITS}]{{4,8}})(?![\d{ZH_DIGITS}])"
)
# A lock, a pause, then what someone says it is and its digits: 后门锁，老板说是店开业日期 0818;
# 库房的锁，师傅讲就是他生日，0527 (the lock "is" the date: its code, not when it opens)
_ZH_SAID_IS = Lazy(
    r"(?:门锁|密码锁|挂锁|(?<![开修换配连封上加])锁|保险[柜箱]|钥匙[箱盒柜]|密码[箱盒]|门禁"
    r"|(?:收银(?:机|台)?|后台|电脑|平板|系统)的?(?:登录|登陆))"  # 用她的后台登录，是 4482
    r"\s*[，,]\s*(?:[\u4e00-\u9fff]{1,6}?(?:说|讲|告诉我|交代))?(?:就|应该|大概)?是"
    r"(?P<what>[\u4e00-\u9fff]{0,10}?)\s*[，,:：]?\s*"
    rf"(?P<v>\d{{4,8}}|[{ZH_DIGITS}]{{4,8}})(?![\d{ZH_DIGITS}])(?=\s*(?:[，,。；;！!]|$))"
)
# One of them pointed back to, after a code given for the thing: 储物柜都是 X，但他自己的那个是
# Y (那个, 这把: the locker or the lock said before, its own code)
_ZH_THAT_ONE = Lazy(
    r"[那这](?:一?个|把|只|台|间|扇)(?:的|呢)?\s*[，,]?\s*(?:就|也|还|则|却)?(?:是|为|[:：])\s*"
    rf"(?P<v>\d{{4,8}}|[{ZH_DIGITS}]{{4,8}})(?![\d{ZH_DIGITS}])(?=\s*(?:[，,。；;！!]|$))"
)
# or the one a payment or a login asks for, named by it: 转账那个是 X, 登录用的那个是 X (its PIN)
_ZH_FOR = Lazy(r"(?:用|时|的时候)?的?\s*$")


def _for_paying(text: str, m: re.Match[str]) -> bool:
    """Whether the one pointed back to is named by what it pays or logs in (a PIN's six digits
    for a payment: not 订单那个是 240613, an order's number)."""
    at = _ZH_FOR.search(text, max(0, m.start() - 4), m.start())
    start = at.start() if at is not None else m.start()
    pay = _ZH_PAY.search(text, max(0, start - 3), start)
    auth = _ZH_AUTH.search(text, max(0, start - 3), start)
    six = len(m["v"]) == 6
    return (pay is not None and pay.end() == start and six) or (
        auth is not None and auth.end() == start
    )


_ZH_THING_WORDS = tuple("锁 柜 箱 盒 库 间 室 机房 警报 报警".split())
_COUNT = dict(zip("三四五六七八九3456789", [3, 4, 5, 6, 7, 8, 9] * 2, strict=True))
_ZH_OPEN_WORDS = tuple(
    "门 锁 柜 箱 盒 开 机 取 付 警报 报警 键盘".split()
)  # not 键: 关键 is "key" too


def zh_open_spans(text: str, low: str) -> list[tuple[int, int]]:
    """Spans of the codes these rules find in `text` (`low`: it lower-cased)."""
    out: list[tuple[int, int]] = []
    for m in scan(_ZH_OPEN, text, low, *_ZH_OPEN_WORDS, "模式", "菜单", "对码", "配对", "防"):
        group = next(g for g in "vxcwkbysngopthmr" if m[g] is not None)
        if group == "s" and m[0][0] == "门" and TIME.fullmatch(m[group]):
            continue  # 北门见，1830: a door where to meet, then when
        if group == "o" and (YEAR.fullmatch(m[group]) or m[group].endswith("00")):
            continue  # 柜子还是老样子，2019: when it was bought; 1200: what it cost
        if not (ZH_UNIT.match(text, m.end()) or ZH_WHEN.search(m[0])):
            out.append(m.span(group))  # not 门禁是 2019 年装的, 开门时间是 0800
    for m in scan(_ZH_COUNTED, text, low, "位"):
        if len(m["v"].replace(" ", "")) == _COUNT[m["n"]] and not ZH_UNIT.match(text, m.end()):
            out.append(m.span("v"))
    for m in scan(_ZH_COUNT_FIRST, text, low, "位数"):
        three = _COUNT[m["n"]] == 3 and m["lock"] is None  # three wheels: a lock's, a box's
        unit = ZH_UNIT.match(text, m.end())
        if len(m["v"].replace(" ", "")) == _COUNT[m["n"]] and not (unit or three):
            out.append(m.span("v"))
    for m in scan(_ZH_KEYED, text, low, "输", "敲", "摁"):
        start, _ = sentence(text, m.start())
        # or a payment's six digits: 微信付款的时候要输 861205 (a sum keyed has its unit)
        pay = _ZH_PAY.search(text, start, m.start()) and len(m["v"]) == 6
        if (_ZH_AUTH.search(text, start, m.start()) or pay) and not ZH_UNIT.match(text, m.end()):
            out.append(m.span("v"))
    for m in scan(_ZH_LOCK_NUMBER, text, low, "锁"):
        if not (ZH_UNIT.match(text, m.end()) or YEAR.fullmatch(m["v"])):
            out.append(m.span("v"))
    for m in scan(_ZH_THING_CODE, text, low, *_ZH_THING_WORDS):
        group = next(g for g in "vwx" if m[g] is not None)
        # 仓库2019: when it was built; 挂锁 100: a price
        if not (YEAR.fullmatch(m[group]) or (group == "x" and m[group].endswith("00"))):
            out.append(m.span(group))
    for m in scan(_ZH_SAID_IS, text, low, "锁", "保险", "钥匙", "密码", "门禁", "登录", "登陆"):
        if not (YEAR.fullmatch(m["v"]) or ZH_UNIT.match(text, m.end())):
            out.append(m.span("v"))
    for m in scan(_ZH_LOCK_KEY, text, low, "密码", "锁码", "箱码", "柜码", "门码", "遥控", "码"):
        if not YEAR.fullmatch(m["v"]):
            out.append(m.span("v"))
    for m in scan(_ZH_THAT_ONE, text, low, "那", "这"):  # a code given before it, this sentence
        start = sentence(text, m.start())[0]
        before = any(start <= s and e <= m.start() for s, e in out) or _for_paying(text, m)
        if before and not (YEAR.fullmatch(m["v"]) or ZH_UNIT.match(text, m.end())):
            out.append(m.span("v"))
    return out
