ALTER TABLE `companies` ADD `motorist_texts_off` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
ALTER TABLE `bookings` ADD `balance_method` text;--> statement-breakpoint
ALTER TABLE `bookings` ADD `balance_paid_at` text;--> statement-breakpoint
ALTER TABLE `documents` ADD `edition` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
DROP INDEX `documents_booking_kind`;--> statement-breakpoint
CREATE UNIQUE INDEX `documents_booking_kind` ON `documents` (`booking_id`,`kind`,`edition`) WHERE `kind` != 'credit_note';
