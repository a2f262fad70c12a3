ALTER TABLE `mail_outbox` ADD `priority` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
UPDATE `mail_outbox` SET `priority` = 0 WHERE `kind` IN ('booking', 'verify-email', 'reset-password', 'signup-attempt');--> statement-breakpoint
UPDATE `mail_outbox` SET `priority` = 2 WHERE `kind` = 'daily' OR `dedupe_key` LIKE 'quote-digest:%';--> statement-breakpoint
CREATE INDEX `mail_outbox_claim` ON `mail_outbox` (`channel`,`priority`,`next_attempt_at`) WHERE "mail_outbox"."status" = 'pending';--> statement-breakpoint
ALTER TABLE `bookings` ADD `job_token_sealed` text;--> statement-breakpoint
UPDATE `mail_outbox` SET `text` = substr(`text`, 1, instr(`text`, '/job/') + 4) || '…' || substr(`text`, instr(`text`, '/job/') + 37) WHERE instr(`text`, '/job/') > 0;--> statement-breakpoint
UPDATE `mail_outbox` SET `subject` = substr(`subject`, 1, instr(`subject`, '/job/') + 4) || '…' || substr(`subject`, instr(`subject`, '/job/') + 37) WHERE instr(`subject`, '/job/') > 0;--> statement-breakpoint
UPDATE `mail_outbox` SET `html` = substr(`html`, 1, instr(`html`, '/job/') + 4) || '…' || substr(`html`, instr(`html`, '/job/') + 37) WHERE instr(`html`, '/job/') > 0;
