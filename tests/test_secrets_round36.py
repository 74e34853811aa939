"""Secrets round 36: each kind h41 missed, with new sentences made up for these tests, and
the ordinary facts of the same look that must pass (a dummy number that counts, a date)."""

from __future__ import annotations

import pytest

from secret_rounds import assert_found, assert_ordinary, cases

KINDS = {
    "a one-time code a message brought, 'code' with no article": [
        ("the council texted code 551907 to finish the parking permit", "551907"),
        ("the gym messaged me code 4820 for the new app", "4820"),
    ],
    "a lock's code after where it is and whose or what for": [
        ("the key safe at the Okafors' for Thursday's rewire is 6153", "6153"),
        ("the padlock on the yard gate at the depot for the night crew is 0927", "0927"),
    ],
    "a code said to change to a new one": [
        ("the gate code at the allotments changes to 4096 on the first", "4096"),
        ("the alarm code will change to 7315 after the audit", "7315"),
        ("the side door changes to 2281 from next week", "2281"),
    ],
    "a tax reference or a person's check certificate named as an ID": [
        ("her UTR for the self assessment is 73019 46288", "73019 46288"),
        ("my PVG certificate number for the youth club is 1300 4471 2286 5019", "1300 4471"),
        ("the DBS certificate no. for the new cleaner: 001552930184", "001552930184"),
    ],
    "a login after a label and a colon: user, then the password named": [
        ("Canva for the cafe menus: menus.dottie, password cheese-toastie!", "cheese-toastie"),
        ("the lab NAS: tech_07, pw Quartz-Lamp-88", "Quartz-Lamp-88"),
    ],
    "a safe's or a lock's numbers said last, after what it holds": [
        ("the safe under the stairs has the passports and the deeds, 37-14-62", "37-14-62"),
        ("Strongbox in the van keeps the takings, 58 21 09", "58 21 09"),
    ],
    "a lock's count of digits said, then its digits after a pause": [
        ("工具房那把挂锁是三位数的，四零六", "四零六"),
        ("车棚的锁是四位数的，8350", "8350"),
        ("阁楼的柜子是三位数字，九一五", "九一五"),
    ],
}
CASES = cases(KINDS)


@pytest.mark.parametrize(("kind", "text", "value"), CASES)
def test_each_kind_is_found(kind: str, text: str, value: str) -> None:
    assert_found(kind, text, value)


ORDINARY = [
    # a message that sent a count, a code of a program
    "she texted code 1200 lines long, can you review it",
    "I sent code 2024 to the reviewers",
    # a lock with a size or its own small number, a broken one
    "the safe at the hotel for the whole of the conference is 1200 mm wide",
    "the locker at the gym for the swimming club is 12",
    # a code that will change with no value, a length
    "the door code changes to a new one every month",
    "the gate code changes to 4 digits next year",
    "the password changes every 90 days",
    # a tax reference that counts (a dummy), a reference said to be elsewhere
    "Self assessment UTR: 12345 67890",
    "The accountant wants my UTR, it's on the letter from HMRC",
    "My DBS certificate number ends 4471",
    "Gas safety certificate number GS-20931, expires in May",
    # a label and a colon, a name and talk about a password
    "Reminder: Sam, password reset sent",
    "Issue: sam.k, password self-service down",
    # a safe and a date after it
    "the safe was serviced, 12-03-24",
    "the safe in the office was moved on the 5th, 12 30 45",
    # a count of digits that is a sum, a door's number
    "工资是六位数的，不少了",
    "门牌是三位数的，三零二",
    "他的锁是三位数的，两把",
]


@pytest.mark.parametrize("text", ORDINARY)
def test_ordinary_look_alikes_pass(text: str) -> None:
    assert_ordinary(text)
