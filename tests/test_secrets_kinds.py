"""The kinds of secret statement a second blind probe set found stored (issue 29), each
with sentences written for these tests, and the ordinary facts of the same look that must
still be stored: a value with no secret noun that a thing "takes", digits said as words or
keyed one by one, a value after its length or after an aside, a dial, a security
question's answer, an unlock pattern, a code just received, a wallet's words in numbered
halves, a password named early and given late, and zh locks, safes and payments."""

from __future__ import annotations

from pathlib import Path

import pytest

from remem import Memory
from remem.errors import SecretRefused
from remem.secrets import find_secrets, looks_secret, redact


def values(text: str) -> list[str]:
    return [text[h.span[0] : h.span[1]] for h in find_secrets(text)]


KINDS = {
    "a thing takes, wants or goes": [
        ("The side gate takes 7720 after midnight.", "7720"),
        ("The lobby door wants 2468 then the hash key.", "2468"),
        ("Dad's gun safe goes 12, 38, 4.", "12, 38, 4"),
        ("sudo on the NAS takes Blue-Otter-4471", "Blue-Otter-4471"),
        ("I set the garage opener in the old house to 31337.", "31337"),
        ("We set the lockbox by the back porch to 4096.", "4096"),
    ],
    "digits said as words": [
        ("The storage unit keypad is four one one nine, then the star key.", "four one one nine"),
        ("The bike lock code is nine nine oh one.", "nine nine oh one"),
        ("My locker at the climbing gym is two eight eight zero.", "two eight eight zero"),
        ("The alarm code is nineteen eighty-four.", "nineteen eighty-four"),
        ("My PIN is forty-two seventeen.", "forty-two seventeen"),
        ("The gate code is double seven double three.", "double seven double three"),
        ("The combo is twelve, thirty-four, fifty-six.", "twelve, thirty-four, fifty-six"),
        ("The locker combination goes twenty, five, thirty.", "twenty, five, thirty"),
        ("验证码是：四 七 二 八。", "四 七 二 八"),
        ("Office alarm disarm code: six three six one.", "six three six one"),
        ("The code from the pharmacy call was six one four four two two.", "six one four four"),
        ("仓库门禁是七三九一。", "七三九一"),
        ("小区门禁码是幺拐洞洞。", "幺拐洞洞"),
        ("仓库保险箱密码 肆零玖贰柒", "肆零玖贰柒"),
        ("支付密码：陆陆叁捌壹零", "陆陆叁捌壹零"),
    ],
    "digits keyed one by one": [
        ("Mailbox code: 3 3 0 7.", "3 3 0 7"),
        ("For the side door it's 6-2-6-2, don't share it.", "6-2-6-2"),
        ("Pantry lock: 1 9 9 0, lift the latch after.", "1 9 9 0"),
        ("新保险柜设的是 8 8 2 4。", "8 8 2 4"),
    ],
    "a dial": [
        ("Filing cabinet dial 14-27-3, turn twice first.", "14-27-3"),
        (
            "The dial on the safe: left three turns to 18, right once past 40 to 2, then left"
            " to 33.",
            "left three turns to 18",
        ),
    ],
    "a value after its length or an aside": [
        ("The password is 10 characters: Gx7pQm2rTw", "Gx7pQm2rTw"),
        ("Our wifi password is 8 digits, 31415926.", "31415926"),
        ("网银密码是 6 位数字 270415。", "270415"),
        ("Recovery codes, keep them offline: 5512 9034, 8821 4470, 1093 6658.", "5512 9034"),
        ("两步验证备用码收好：44120-88213、90311-52270。", "44120-88213"),
    ],
    "a passphrase with a number in it": [
        ("Vault unlock phrase: marble orchid 17 lantern", "marble orchid 17 lantern"),
        ("Backup encryption phrase is copper falcon 92 meadow river", "copper falcon 92"),
    ],
    "a user / password pair with no login word": [
        ("admin / Gr@nite!Peak7 for the old router", "Gr@nite!Peak7"),
        ("root / Wz!88kLq on the staging VM", "Wz!88kLq"),
        ("登录学校邮箱用 chenjing / Cj#mail2023", "Cj#mail2023"),
    ],
    "a security question's answer": [
        (
            'For my credit union\'s "city you were born in" security question, I put Tallahassee.',
            "Tallahassee",
        ),
        ("The security answer for my mom's maiden name is Delacroix.", "Delacroix"),
        ("My childhood best friend answer for the bank is Tobias Renner.", "Tobias Renner"),
        ("When they ask the first car question, the answer is Blue Civic.", "Blue Civic"),
        ("银行的密保问题“小时候的外号”，我填的是 小胖。", "小胖"),
        ("预留问题“第一所学校”，答案写的是 实验小学。", "实验小学"),
    ],
    "an unlock pattern": [
        ("My screen lock pattern is a Z starting from the top-left dot.", "a Z starting"),
        ("锁屏图案是一个 N 字，从左下角开始。", "一个 N 字"),
    ],
    "a code just received": [
        ("The code the bank just sent me is 553091.", "553091"),
        ("My authenticator shows 802 114, quick, before it changes.", "802 114"),
        ("Authy says 441 938 right now.", "441 938"),
    ],
    "a wallet's words in numbered halves": [
        (
            "Seed words 1 to 12: tiger maple orbit candle velvet hazard pulse bonus ginger"
            " motion cactus river",
            "tiger maple orbit",
        ),
        (
            "words 13 to 24 are lumber sketch nature vivid apron sunset frost ladder hobby"
            " cruise walnut ember",
            "lumber sketch nature",
        ),
    ],
    "a password named early, given late": [
        (
            "The password is the dog's name and our street number, so just save Biscuit221.",
            "Biscuit221",
        ),
        (
            "The VPN portal wants my staff id and password, which are 88412 and Kettle.Storm.12.",
            "Kettle.Storm.12",
        ),
        ("The bank app asks for a PIN on launch, it's 8826.", "8826"),
        ("Guest wifi: CornerCafe, password on the chalkboard is espresso2023!", "espresso2023!"),
        ("Login for the office printer is admin with Xer0x!Admin, it's taped on.", "Xer0x!Admin"),
        ("酒店 App 登录用 Hotel@2024wang。", "Hotel@2024wang"),
        ("Laptop login is my name plus 77, so Marcus77.", "Marcus77"),
        ("那个账号的密码是我生日加名字，也就是 19900712wang。", "19900712wang"),
        ("The hotel Wi-Fi code is Seaside2024.", "Seaside2024"),
        ("I changed the Nest thermostat PIN to 5821.", "5821"),
    ],
    "zh locks, safes and payments": [
        ("储物柜的锁是 7-3-1-5。", "7-3-1-5"),
        ("保险箱我设成了 600417。", "600417"),
        ("办公室的门锁是孩子生日 20150308。", "20150308"),
        ("微信付款那六位是 731950，别告诉别人。", "731950"),
        ("家里报警器的撤防码是 5830。", "5830"),
        ("车库那个卷帘门，遥控坏了就按 7788。", "7788"),
        ("开柜子用 1314。", "1314"),
        ("行李箱锁三位数是 5 2 0。", "5 2 0"),
        ("快递柜的取件码：A-0423。", "A-0423"),
        ("保险柜密码改成了 六 四 九 二。", "六 四 九 二"),
        ("百度网盘提取码是 x7k2。", "x7k2"),
    ],
    "a value split across sentences or told after an aside": [
        ("The vault password has two parts. The first is Qz81 and the second is kLm7.", "kLm7"),
        ("数据库密码分两段记。前半段 Qz81，后半段 kLm7。", "Qz81"),
        ("password is all lowercase: bluebird", "bluebird"),
        ("The safe's combination, if you need it, 12 34 56.", "12 34 56"),
        ("Password part one is Falcon, part two is 7788, together no space.", "7788"),
        ("Split it: first four are 8812, last four are 3390, that's the bank PIN.", "8812"),
        ("The vault code is in two pieces. Piece one: 44. Piece two: 1907.", "1907"),
        ("The last four of my SSN are 4421.", "4421"),
        ("The password for the tax PDF is my SSN last four, 8822.", "8822"),
    ],
    "a password's full shape with no word for it": [
        ("Remember: admin, Secur3!Pass", "Secur3!Pass"),
        ("for the NAS in the closet -> Qm7#vLp2x", "Qm7#vLp2x"),
    ],
    "the value first, or after the noun asked": [
        ("bluebird88 is my email password.", "bluebird88"),
        ("Abc12345 是我的邮箱密码。", "Abc12345"),
        ("My password? It's sunflower22.", "sunflower22"),
        ("My debit card's PIN? 3390.", "3390"),
        ("The door's 4471 now.", "4471"),
        ("Gate code's changed to 8080.", "8080"),
        ("Venmo PIN is the same as my ATM one: 6620", "6620"),
        ("开门密码我改了，现在是 2580。", "2580"),
        ("卡的密码跟门禁一样，1357。", "1357"),
    ],
    "a card or an ID named the way other countries name them": [
        ("My Visa is 4532 7153 3790 1241, exp 04/28.", "4532 7153 3790 1241"),
        ("My SIN is 046 454 286.", "046 454 286"),
        ("My NHS number is 943 476 5919.", "943 476 5919"),
        ("Medicare number 2123 45670 1.", "2123 45670 1"),
    ],
    "a keypad's keys before the code": [
        ("To get into the building, dial 0427 on the panel.", "0427"),
        ("Parking garage gate: press star then 5566.", "5566"),
        ("Get in with 5521 at the back.", "5521"),
        ("Tap 4471 on the pad by the elevator.", "4471"),
        ("Use 3344 at the side door tonight.", "3344"),
        ("It opens with the usual 4471.", "4471"),
        ("5521 gets you in the back door.", "5521"),
        ("The number to get through the gate is 3344.", "3344"),
        ("The keys are in a lockbox by the door, 0912.", "0912"),
        ("进小区输 6688# 就行。", "6688#"),
        ("小区门禁按 1 号键再按 2580。", "2580"),
    ],
    # the kinds a third probe set found (issue 29), in sentences written for these tests
    "a secret noun typed in haste": [
        ("the passwrd for the label printer is Ink4Days", "Ink4Days"),
        ("pssword: river77", "river77"),
        ("my paswd is Tulip2020 btw", "Tulip2020"),
        ("the wifi pasword is meadow123", "meadow123"),
    ],
    "an ID by its short or local name": [
        ("His social's 233-41-9087, keep it safe.", "233-41-9087"),
        ("my soc sec number is 233 41 9087", "233 41 9087"),
        ("Her ITIN: 987-65-4321.", "987-65-4321"),
        ("my medicare id is 1EG4-TE5-MK73", "1EG4-TE5-MK73"),
        ("儿子的学籍号是L110105201009150012。", "L110105201009150012"),
        ("医保卡号 3301998877665544，报销用。", "3301998877665544"),
    ],
    "a card's security code after the card": [
        ("card ending 4432, expires 10/26, sec code 918", "918"),
        ("Visa 4000 1234 5678 9010, exp 08/27, security code 4410", "4410"),
    ],
    "a combination in number words": [
        ("the locker combo is seventeen, four, thirty-one", "seventeen, four, thirty-one"),
        ("The combination for my bike lock is eight, twenty, fifty.", "eight, twenty, fifty"),
        ("Our shed padlock is twenty, forty, ten.", "twenty, forty, ten"),
    ],
    "a callbox, lobby or elevator code": [
        ("the call box code is 2719 for visitors", "2719"),
        ("use the elevator code 3344 after 10pm", "3344"),
        ("Lobby code 8023 then the bell.", "8023"),
    ],
    "a value before what it is": [
        ("Zx81qq, that's my password for the forum", "Zx81qq"),
        ("use 7782 - that's the code for the side gate", "7782"),
        ("her birthday and initials, 1103mb, which is the pin for the bike lock", "1103mb"),
        ("9q8w7e，这就是路由器后台的密码", "9q8w7e"),
    ],
    "a password told by its parts": [
        ("the laptop password is lowercase k, then 77, then a hash sign", "lowercase k, then 77"),
        ("my pin is our street name Elm, capital E, 1984 and a dollar sign", "capital E"),
        ("密码是小写的abc，然后2020，再加一个井号", "小写的abc"),
        ("新的口令：大写Q，接着小写wer，然后88", "大写Q"),
    ],
    "a security question answered in prose or by an equals sign": [
        ("When the bank asks about my first car I always answer Corolla99.", "Corolla99"),
        ("For the maiden name question, I always put Ostrowski.", "Ostrowski"),
        ("the childhood friend question = Tomasz", "Tomasz"),
        ("security question (first pet): Noodle2011", "Noodle2011"),
    ],
    "an ATM's or a bank card's code before its digits, no verb (like PIN 4821)": [
        ("ATM code 9937", "9937"),
        ("the bank card code 9837, in case I forget", "9837"),
        ("debit card code: 4410", "4410"),
        ("银行卡取款码 8696", "8696"),
    ],
    "a wifi code with an adverb before it": [
        ('The wifi code is literally "sunshine77" lol', "sunshine77"),
        ('the router code is basically "Kiwi#Loft"', "Kiwi#Loft"),
    ],
    "a live stream's key (推流码)": [
        ("店铺直播的推流码 live_5520931_Qx8mPz2Lk7Rw，别外传", "live_5520931_Qx8mPz2Lk7Rw"),
    ],
}
CASES = [(kind, text, value) for kind, rows in KINDS.items() for text, value in rows]


@pytest.mark.parametrize(("kind", "text", "value"), CASES)
def test_each_kind_is_found(kind: str, text: str, value: str) -> None:
    found = values(text)
    assert any(value in v or v in value for v in found), (kind, found)
    assert looks_secret(text)


ORDINARY = [
    # the usual look-alikes: orders, hotlines, flights, versions, prices, times, addresses
    "My Amazon order 114-7723019-5520134 arrives Friday.",
    "The Delta reservations hotline is 1-800-221-1212.",
    "客服热线 400-820-8820，工作日 9 点到 6 点。",
    "Flight UA 2231 boards at gate 14 at 6:40 pm.",
    "We moved the service to version 4.12.0 last sprint.",
    "The new laptop cost $1,899.00 with tax.",
    "Dinner is at 7:30 pm on Saturday.",
    "Our new address is 4821 Maple Avenue, Apt 12.",
    "我的航班是 MU5137，明早七点。",
    "订单号 2024051812345678 已发货。",
    "版本号是 2.8.13。",
    "推流码已经重置了，新的在群公告里。",
    # a thing that takes a number of things, not a code
    "The side gate takes 20 minutes to close fully.",
    "Our CI takes 1200 seconds on a cold cache.",
    "The printer takes 1200 dpi scans now.",
    "The copier needs 5000 sheets a month.",
    "The build needs 4096 MB of RAM.",
    "sudo takes a while on that old Pi.",
    "I set the thermostat to 68 degrees.",
    "We set the timer on the oven to 45 minutes.",
    # numbers in lists, scores and phones said digit by digit
    "The kids are ages 3 5 7 9 this year.",
    "Our team plays 4-3-3 most weeks.",
    "Call 5 5 5 0 1 3 2 to reach the front desk, it's a public line.",
    "The score was 2-1 in the end.",
    "The safe was delivered on 12-05-24 by the movers.",
    "He turned left past the church to 5th Avenue, then right to 22nd Street.",
    # talk about answers, patterns and codes
    "I can never remember the answers to security questions.",
    "The bank asked me to update my security questions next time I log in.",
    "The bank's answer to my complaint was Denied.",
    "The answer to her question about the deadline is Friday.",
    "I put Kubernetes on the list of things to learn this year.",
    "The unlock pattern is too easy to guess, so I switched to a PIN.",
    "My phone's lock pattern is disabled, I use a PIN instead.",
    "The code they sent expired before I used it.",
    "The code they shipped last week is 3000 lines of Go.",
    "The error code from the printer is 5200.",
    "The zip code for the new place is 02139.",
    "The promo code from the newsletter is SPRING20.",
    "Authenticator apps are required for all admins from next month.",
    "Words 1 to 10 of the vocabulary list are due on Monday.",
    "I changed my password on Windows11 after the update.",
    "I store the password for the router in Bitwarden under Home.",
    "root / boot / home are separate partitions on the server.",
    "The image is registry.example.io/web:2.8.1.",
    "The locker number is 118, right by the pool.",
    "The login page was slow so IT2024 release notes mention a fix.",
    "Dial 911 from the panel in the lobby in an emergency.",
    "Our flight confirmation code is QX7P2M.",
    "The wifi code of conduct is posted in the lobby.",
    "I changed the PIN policy to require 6 digits.",
    "提取码我发微信上了。",
    "We have two offices. The first is in Boston and the second in NYC.",
    "Two releases this year. The first is 2024.1 and the second is 2024.2.",
    "The combination of 12 34 56 lottery numbers won nothing.",
    "The password policy is simple: 12 characters or more.",
    "Our id field takes the regex A-Za-z0-9_.@%- and nothing else.",
    "We write C#10 and F#6 at work, mostly on .NET 8.",
    "Q3 revenue was up 12% to $4.5M, AT&T was the biggest client.",
    "Tag the tweet #Launch2025Day and mention @AcmeCorp2.",
    "Prefer user?.Profile2 over the old null checks in the Kotlin code.",
    "The C++ helper is geo::Vec3d!unsafe, do not call it from tests.",
    "Bitwarden is my password manager.",
    "My password? I forgot it again.",
    "The door's 3 feet wide.",
    "The gate's 1200 mm wide.",
    "The alarm's set for 6:30.",
    "开门密码我改了，现在是指纹。",
    "1Password 是公司的密码工具。",
    "My Costco card is 7001 2345 0098 7651, the executive one.",
    "The NHS number format has 10 digits.",
    "It is a sin to waste a sunny Saturday.",
    "The gym locker room is one of the nicest in town.",
    "The first four are the easy chapters, the last four are hard.",
    "Part one is the intro, part two is the demo.",
    "The combo is twenty five dollars with fries.",
    "I was born in nineteen eighty-four, like the book.",
    "The bus comes at seven fifteen and eight forty-five.",
    "The first three digits of our zip are 941.",
    "The kids' lockers are numbered 1 2 3 4 in the hallway.",
    "The meeting ID for the weekly sync is 845 2291 0037.",
    "My insurance policy number is HX-4471-2290.",
    "The safe deposit box is at the downtown branch, box 1187.",
    "The alarm clock goes off at 0545 on weekdays.",
    "My first pet was a goldfish named Bubbles, cute story.",
    "My mother's maiden name is Italian, she's from Naples.",
    "会员卡号是 8800 1234，超市用的。",
    "我的工号是 A10086，报销要填。",
    # developer facts with numbers and the words of secrets
    "The test matrix is [1 2 3 4] in the example.",
    "The retry backoff is 1 2 4 8 seconds.",
    "The cron schedule is 0 3 * * 1 for the weekly backup.",
    "Our API takes 5000 requests per minute before it throttles.",
    "The token expires in 3600 seconds.",
    "The code freeze starts 12/15.",
    "First half of the sprint is planning, second half is review.",
    "The number of lockers in the gym is 240.",
    "The number for the garage company is 5551234.",
    "The bus number to the gate is 1200 on weekdays.",
    "2024 gets you in the history books, the coach said.",
    "Type 2000 words in the notepad app before lunch.",
    "My iPad takes 2048 by 1536 screenshots.",
    "Getting in with 3 kids is hard at the zoo gate.",
    "The garage door was two feet short, one of the movers said.",
    # zh
    "手机锁屏图案我关了，改用指纹。",
    "我把密保答案写在备忘录里了。",
    "密保问题的答案是什么来着？",
    "门锁是小米的，去年装的。",
    "保险柜是 2018 年买的。",
    "行李箱是 24 寸的。",
    "这个月支付宝支付了 320 元。",
    "支付宝支付的订单号是 2024031200001234。",
    "密码至少 12 位，要有大小写。",
    "验证码是六位数字。",
    "答案是 B，第三题选错了。",
    "一五一十地说清楚。",
    "门店客服，按 1 转人工。",
    "柜台说，按 2024 年的标准办理。",
    "快递柜编号：A-12。",
    "会员号 VIP-20240，积分还有 300。",
    "门牌三位数是 302。",
    "门禁是 2019 年装的。",
    "开门时间是 0800。",
    "取件时间是 1800 以后。",
    "The password policy changed on March 3, 2024",
    # talk about passwords, their managers and their rules, and look-alikes of the kinds above
    "Our password manager makes 24-character passwords with symbols by default.",
    "The vault uses 256-bit keys and 600000 PBKDF2 rounds.",
    "我的密码全都存在Bitwarden里",
    "我的密码都记在本子上了",
    "密码重置邮件30分钟内有效",
    "找回密码的短信5分钟内有效",
    "密保问题的答案我是随机生成的，存在密码管理器里",
    "Passwords must contain a capital letter, a number like 42 and an exclamation mark.",
    "Your password needs uppercase A-Z, lowercase a-z, digits 0-9 and a symbol.",
    "密码必须包含大写字母、小写字母、数字和感叹号",
    "新密码要求至少8位，包含大写字母和数字",
    "She wrote capital P on the board, then 2015, then an exclamation mark for emphasis.",
    "I typed pasword instead of password twice in the doc.",
    "Anyway, that's the password policy for new hires.",
    "Room 1402, that's the code for the booking system.",
    "The social media team posted 120 updates this week.",
    "Social: 3 events this month, 2 next.",
    "My Visa expired 03/24, the bank sent a new one with a different security code.",
    "Security questions: 3 of them, all about school.",
    "My first pet was Max, a golden retriever.",
    "For the survey question I always answer Strongly Agree.",
    "The combination of flour, sugar and eggs is one, two, three cups.",
    "The callbox at the building entrance is broken again.",
    "The wifi code is printed on a sticker somewhere.",
    "My Medicare card arrived in the mail yesterday.",
    "The ITIN application takes 7 weeks.",
    "学籍号在学校的系统里能查。",
    "The ATM code changed in 2024 when the bank merged.",
    "Enter the gift card code at checkout.",
    "The card code field on the form takes 3 digits.",
    "Our bank code 37040044 is printed on every statement.",
]


@pytest.mark.parametrize("text", ORDINARY)
def test_ordinary_facts_of_the_same_look_pass(text: str) -> None:
    assert find_secrets(text, contacts=False) == []


def test_a_found_kind_is_refused_at_a_save_and_a_look_alike_stored(mem: Memory) -> None:
    with pytest.raises(SecretRefused):
        mem.save("The side gate takes 7720 after midnight.")
    with pytest.raises(SecretRefused):
        mem.save("银行的密保问题“小时候的外号”，我填的是 小胖。")
    assert mem.save("The side gate takes 20 minutes to close fully.").status == "added"
    assert mem.save("Mom's new cell number is 617-555-0143.").status == "added"
    assert mem.save("The wall safe takes 7720 now.", force=True).status == "added"


def test_session_files_keep_contacts_and_drop_secrets(tmp_path: Path) -> None:
    # the ledger and an offloaded tool output redact what a save refuses, no more
    from remem.context.ledger import SessionLedger
    from remem.context.offload import Offloader

    contact, secret = "Mom's new cell is 617-555-0143.", "The side gate takes 7720 after midnight."
    with SessionLedger(tmp_path) as ledger:
        ledger.message({"role": "user", "content": f"{contact} {secret}"})
        out = Offloader(tmp_path, ledger.id).process(
            "execute_command", f"{contact}\n{secret}\n" + "." * 9000
        )
    raw = ledger.path.read_text(encoding="utf-8")
    assert out.path is not None
    for kept in (raw, out.path.read_text(encoding="utf-8")):
        # (not "7720" alone: a timestamp in the ledger may hold it)
        assert "617-555-0143" in kept and "takes 7720" not in kept
        assert "[REDACTED:password]" in kept


@pytest.mark.parametrize(
    "text",
    [
        "the alarm ＰＩＮ is 8812",  # full-width letters
        "my card РIN is 3390",  # a Cyrillic Р
        "office safe P\u200bIN: 2207",  # an invisible space inside the word
        "p4ssw0rd for the router is tulipfield9",  # digits for letters
        "my b-a-n-k p-i-n is 4471",  # letters spelled apart
    ],
)
def test_a_secret_in_disguise_is_unmasked(text: str) -> None:
    assert looks_secret(text)
    assert not any(ch.isdigit() for ch in redact(text, contacts=False).split("REDACTED")[-1])


@pytest.mark.parametrize(
    "text",
    [
        "commit b5d9cba fixed the 4B lights",
        "Ｆｌｉｇｈｔ ＵＡ１２３ leaves at nine",
        "grade: A-B-C",
    ],
)
def test_what_only_looks_masked_passes(text: str) -> None:
    assert not looks_secret(text)
