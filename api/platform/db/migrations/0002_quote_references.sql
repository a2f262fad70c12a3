CREATE TABLE `quote_reference_key` (
	`id` integer PRIMARY KEY NOT NULL,
	`key` blob NOT NULL
);
--> statement-breakpoint
DROP INDEX `quotes_public_id_unique`;--> statement-breakpoint
-- The permutation's key: random, made here once, kept with the data (and in every backup).
INSERT INTO `quote_reference_key` (`id`, `key`) VALUES (1, randomblob(16));
