"""Finding memories again: keyword ranking with decay, tiers and the relevance floor
(`ranking`), embedders (`embedding`), the in-process vector matrix (`matrix`), hybrid
search (`vector_index`) and the block put into a prompt (`block`). Imports remem's
core, `remem.store` and `remem.truth`."""
