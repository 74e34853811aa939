"""Secrets told around their noun (issue 29, round 5): each kind of telling with new
examples, and the ordinary facts of the same look that must pass."""

from __future__ import annotations

import pytest

from remem.secrets import find_secrets, redact


def values(text: str) -> list[str]:
    return [text[h.span[0] : h.span[1]] for h in find_secrets(text, contacts=False)]


KINDS = {
    "the value first, named in the next sentence": [
        ("8817. That's the code for the bike shed, keep it quiet.", "8817"),
        ("Note: four four one nine. That's what the keypad at the studio wants.", "four"),
        ("Tulip-Crane-42. Jotting it here since that's the passphrase for the NAS.", "Tulip"),
        ("460215。记一下，这是仓库卷帘门的密码。", "460215"),
        ("记住：三、七、一、五。这是保险箱的密码。", "三、七、一、五"),
        ("qz-4471-mint，这是前台电脑的开机密码。", "qz-4471-mint"),
    ],
    "a question and its answer": [
        ("Q: what's the passcode on Mum's tablet? A: 2206.", "2206"),
        ("Q: name of your first school? A: Ravenscroft.", "Ravenscroft"),
        ("问：奶奶银行卡的密码？答：830914。", "830914"),
        ("For the insurer's question 'town where you grew up' I answered Tromso.", "Tromso"),
        ("Recovery question answer (favourite film) is Casablanca.", "Casablanca"),
        ("The maiden name I gave the utility company is Fairweather.", "Fairweather"),
        ("密保问题：小学班主任？我填的是 周老师", "周老师"),
        ("密保：父亲的名字——王建国。", "王建国"),
    ],
    "digits by position or by count": [
        ("For the shed padlock: first digit 5, second 2, third 8, fourth 0.", "first digit 5"),
        ("保险箱密码，第一位 7，第二位 1，第三位 4，第四位 2。", "第一位 7"),
        ("行李箱锁三个数：五、二、六。", "五、二、六"),
        ("The locker code is four digits: six, one, oh, three.", "six, one, oh, three"),
    ],
    "a list of backup codes": [
        ("Recovery codes for the mail account: 4KQ9T, X72PM, 9HD3W, L5N8C.", "4KQ9T"),
        ("GitHub 2FA backup: 58213 90471 33820 14659", "58213"),
        ("两步验证的备用码：3391-8820、4417-0926、7753-1184。", "3391-8820"),
    ],
    "a login as an e-mail and a password": [
        ("For Hulu I use dana.k@mailbox.org with Pepper-Mill-7.", "Pepper-Mill-7"),
        ("Spotify: tom.r@fastmail.com / jazzHands88", "jazzHands88"),
    ],
    "a code with its own noun": [
        ("Her SIM's PUK, written on the card it came in, is 61038274.", "61038274"),
        ("PUK 码是 27384910，别弄丢", "27384910"),
        ("The Webex host key is 730418.", "730418"),
        ("Redemption code for the Steam card: 4HXT-9QPL2-WR7M", "4HXT-9QPL2-WR7M"),
        ("门禁卡的激活码是 582036", "582036"),
        ("Tablet unlock is 913407.", "913407"),
        ("My Mastercard number is 5412 7534 1298 3345", "5412 7534 1298 3345"),
        ("The EIN on the LLC paperwork is 47-2219834.", "47-2219834"),
    ],
    "a value after an aside, a change, a restatement": [
        ("Router admin password (the one on the sticker): hazel*Pond9", "hazel*Pond9"),
        ("The padlock combo on the boat gate changed last week — now 3382.", "3382"),
        ("开门码是 九千零一十二，也就是 9012。", "9012"),
        ("备用密码 六三九零四一", "六三九零四一"),
        ("网盘分享提取码 q8m3", "q8m3"),
        ("密码是我女儿的小名加生日，乐乐0815。", "乐乐0815"),
        ("The alarm code is the year we married, which is 1998.", "1998"),
        ("助记词（英文版）：river stone candle ... 见纸条", ""),
    ],
    "a thing it opens, said with 'it' or 'is'": [
        ("Gym locker is the four-number kind, I set it to two nine one seven.", "two nine"),
        ("Cabin lockbox by the porch, I changed it to 5506 last time.", "5506"),
        ("我家门锁是指纹加密码的，设成了三八二七。", "三八二七"),
        ("The side door is 7391, the garage uses the remote.", "7391"),
        ("仓库大门是 4468，侧门是 8864。", "4468"),
        ("Loading bay gate is *2291# after six.", "*2291#"),
        ("The meeting room is a six digit code. It's 554120, ask nobody.", "554120"),
    ],
    "a wifi's key said by its network": [
        ("Cottage wifi is named Heron_Nest and the key is driftwood-candle-51.", "driftwood"),
        ("Spare router: SSID OFFICE-22B1, key 9QW3ER7TY5UI.", "9QW3ER7TY5UI"),
        ("Reset the office wifi tomorrow — it's currently studio2020guest.", "studio2020"),
    ],
    "a code just sent, a setup key, a webhook": [
        ("The courier texted me a code, 447 190, and now someone is asking for it.", "447 190"),
        ("Two-factor setup key for the VPN: JBSW Y3DP 4HQX 7KM2 ZT5A", "JBSW Y3DP"),
        (
            "钉钉群机器人 https://oapi.dingtalk.com/robot/send?access_token=9f3c2a7d1e8b4c6a",
            "https://oapi.dingtalk.com/robot/send?access_token=9f3c2a7d1e8b4c6a",
        ),
    ],
    "more ways of telling (the model caught these in cv; the rules now do)": [
        ("Beach hut padlock set to 6620 for the summer.", "6620"),
        ("Locker combination nine one four four, written nowhere else.", "nine one four four"),
        ("The shop alarm duress code is 5150, the normal one 5151.", "5150"),
        ("The freezer room panel code is 2719.", "2719"),
        ("The numbers are 8, 31, 16. That's the combination on the tool chest.", "8, 31, 16"),
        ('"Harbor77x" — that\'s what gets you into the shared photo drive.', "Harbor77x"),
        ("Remind me to move the bank password from Tr4vel!Bug to a longer one.", "Tr4vel!Bug"),
        ("记得把邮箱密码从 Qwer1234! 改掉。", "Qwer1234!"),
        ("Codes for the farm: barn door 4417, shed 0923, main gate 7730.", "4417"),
        ("The password is Mum's mobile reversed, 8830912277.", "8830912277"),
        ("车库密码前三位 518，后三位 907。", "518"),
        ("The first half of the safe code is 38, the rest is 1150.", "38"),
        ("The wireless at the cafe is BeanNet, key espresso7shot.", "espresso7shot"),
        ("The code to the apartment building is 2266, then wait for the buzz.", "2266"),
        ("奶奶的存折密码是 6 位：五三零八一九。", "五三零八一九"),
        ("工具柜密码：左转到 12，右转到 30，再左转到 4。", "左转到 12"),
        (
            "BitLocker key: 123456-234567-345678-456789-567890-678901-789012-890123",
            "123456-234567-345678-456789-567890-678901-789012-890123",
        ),
        ('Our alarm monitoring safe word is "tangerine", they ask for it.', "tangerine"),
        ("Shed code at the allotment changed — it's 3094 now.", "3094"),
        ("他家的 wifi 密码是门牌号加电话尾号。其实就是 1203886512。", "1203886512"),
        ("记得：六一三八。这是后院铁门的密码。", "六一三八"),
    ],
}
CASES = [(k, t, v) for k, rows in KINDS.items() for t, v in rows if v]


@pytest.mark.parametrize(("kind", "text", "value"), CASES)
def test_each_kind_is_found(kind: str, text: str, value: str) -> None:
    found = values(text)
    assert any(value in v or v in value for v in found), (kind, found)
    assert value not in redact(text, contacts=False) or len(value) < 5


ORDINARY = [
    # the value first: a year, a zip code, an order named next
    "1998. That's the year we moved to Leeds.",
    "94110. That's the zip code of the office.",
    "A4-220. That's the order number for the desk.",
    "2023。这是我们开业的年份。",
    # a question and its answer that are no secrets
    "Q: what time is standup? A: 0930, in the big room.",
    "Q: where did you grow up? A: Mostly in Porto.",
    "问：下次会议几点？答：1430。",
    "四楼实验室安全问题：找林老师，分机 2231",
    # positions, counts and lists that are no codes
    "First place 3, second 2, third 1: the scores of the relay.",
    "Tickets for seats 14020, 14021, 14022 are in my email.",
    "2FA is now on for every account since March.",
    "The backup jobs 50121, 50122 and 50123 failed overnight.",
    # e-mail addresses with no password
    "Send the invoice to billing@acme.io / finance team by Friday.",
    "Contact: jo.ng@uni.edu / +44 20 7946 0958",
    "Email bob@corp.com with the Q3-report when it is ready.",
    # set it to, doors and gates with numbers of their own
    "The thermostat in the hall, I set it to 2100 for the night.",
    "Our flight leaves from terminal 2, the gate is 2041.",
    "Room 1204, the door is 1204 too, easy to find.",
    "门店营业时间改成 0900 开门。",
    "部门是 3012 室。",
    # keypad look-alikes, wallet addresses, utility accounts
    "工单 #7713：用户输错密码三次后没有锁定账号。",
    "Deposit address: 0x71C7656EC7ab88b098defB751B7401B5f6d8976F",
    "燃气户号 6600123456，缴费用。",
    "The bank's helpline is on the back of the card, 0800 calls are free.",
    "The GPG key fingerprint is 4F2A 9C1D 77E0 1B3C, public on the keyserver.",
    "wifi is slow again, it's currently 5GHz only.",
    "The router is an Archer AX55, on the shelf.",
    # questions asked of a person, measures, a port, a model that writes code
    "Q: what's your favorite color? A: Blue.",
    "问：你最喜欢的食物？答：饺子。",
    "Q: which port does the API key service use? A: 8443.",
    "GPT-4o, it's the model that writes code.",
    "The printer kept jamming so I set it to 2400 dpi.",
    "The door code is in the fridge, which is 1200 mm tall.",
    "柜子改成 1200 宽的。",
    "大门是 2019 年修的。",
    # the second round's look-alikes
    "The zip code for the apartment building is 10001.",
    "The wireless mouse is an M720 and the keyboard is a K380.",
    "Move the LED pin from GPIO4 to GPIO17 on the board.",
    "The numbers are 3, 5, 8. That's the order we present in.",
    'The safe word in drama club is "banana", everyone knows it.',
    "Codes of conduct: section 4417 covers the lab.",
]


@pytest.mark.parametrize("text", ORDINARY)
def test_ordinary_look_alikes_pass(text: str) -> None:
    assert values(text) == [], text
