"""Secrets round 14 (issue 29): each kind h18 and h19 missed or flagged, with new sentences made
up for these tests, and the ordinary facts of the same look that must pass."""

from __future__ import annotations

import pytest

from secret_rounds import assert_found, assert_ordinary, cases

KINDS = {
    "a machine's login as any user, a slash and a made-up password": [
        ("The lab's spectrometer PC is techlead / Prism-Blue-2207.", "Prism-Blue-2207"),
        ("the booking kiosk is frontdesk / Harbour_Gulls9, don't share", "Harbour_Gulls9"),
        ("远程桌面的电脑是 warden / Pine-Lodge-88", "Pine-Lodge-88"),
        ("office wifi: CrewNet / gull-harbour-sunset-71", "gull-harbour-sunset-71"),
    ],
    "an ID number named, its value after a colon further on, or an NI number": [
        ("NHS number for the patient on the ward round list: 485 777 3456", "485 777 3456"),
        ("NI number for the new porter is QQ 12 34 56 C, HR asked", "12 34 56 C"),
    ],
    "a password or key said in digit groups, no link word": [
        ("腾讯会议的主持人密钥 731 905，周会用", "731 905"),
        ("Zoom host key is 552 918 for the Thursday call", "552 918"),
        ("门口保险柜密码 4471 2209", "4471 2209"),
    ],
    "an emergency or manual override given as a code": [
        ("The freezer's emergency override is 47-19-02, then press reset.", "47-19-02"),
        ("Manual override on the barrier: 8830", "8830"),
    ],
    "a thing opened by a code, said with 'opens on' or a dash": [
        ("the key box for the staff flats opens on 7302", "7302"),
        ("Bike shed padlock at the depot - 5519", "5519"),
    ],
    "a Chinese lock, a pause, then its code": [
        ("仓库钥匙箱还是那个，2741，用完放回", "2741"),
        ("药房那把锁，三九零六，别外传", "三九零六"),
    ],
}
CASES = cases(KINDS)


@pytest.mark.parametrize(("kind", "text", "value"), CASES)
def test_each_kind_is_found(kind: str, text: str, value: str) -> None:
    assert_found(kind, text, value)


ORDINARY = [
    # a slash between plain words, a version or a place, no login
    "We support read / write access for the interns.",
    "The train runs London / Paris twice a day.",
    "The office PC is Windows 11 / Office 2021.",
    "our build server is ci01 / ubuntu-22.04-lts",
    "NHS number format: 10 digits, checked by modulus 11",
    # a key's size and digits in groups that count something
    "密钥长度 2048 位，证书明年到期",
    "The pallet is 120 80 cm, two of them.",
    # an override said, no code given
    "The emergency override is the red lever by the door.",
    "Manual override switch fitted on 12 March.",
    # an ID named, then another number in a later clause
    "护照下个月到期，预约了出入境的号，预约编号 YZ20251103-0098。",
    "My passport is being renewed, the application reference is PR-88412093.",
    # a door or lock with a date, a price or a time after it
    "The gate opens at 0700 on weekdays.",
    "Main door - 1998 renovation, needs a new closer.",
    "门锁坏了，2024年换的",
    "保险柜在二楼，1203房间",
]


@pytest.mark.parametrize("text", ORDINARY)
def test_ordinary_look_alikes_pass(text: str) -> None:
    assert_ordinary(text)
