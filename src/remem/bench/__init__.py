"""Evaluation harnesses behind `remem bench` (`locomo`: retrieval on LoCoMo-style
conversations). Imports `remem.memory` and below."""
