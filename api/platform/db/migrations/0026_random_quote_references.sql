-- Quote references are random again, held unique by this index (decision 038). Every reference
-- ever given is already in public_id (the writer has always stored it there, and the older schemes
-- never repeated one: 8 random characters under a unique index, then 9 from a permutation of the
-- row id), so the index is all a stored reference needs to be found: no row changes.
-- quote_reference_key stays, unread, so that the release before can still start on this file.
CREATE UNIQUE INDEX `quotes_public_id_unique` ON `quotes` (`public_id`);
