"""Finding memories again: how `Memory` reads (`recall`), keyword ranking with decay,
tiers and the relevance floor (`ranking`), embedders (`embedding`, the shipped model in
`use_model`), the in-process vector matrix (`matrix`), hybrid search (`vector_index`),
the warm vector service for one-shot commands (`warm`, its process in `warm_service`)
the block put into a prompt (`block`) and the read-time safety net for a change a
save missed (`newer`). Imports remem's core, `remem.store` and
`remem.truth`."""
