ALTER TABLE `companies` ADD `motorist_texts_off` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
ALTER TABLE `companies` ADD `review_mode` text DEFAULT 'off' NOT NULL;--> statement-breakpoint
ALTER TABLE `companies` ADD `review_url` text;--> statement-breakpoint
ALTER TABLE `bookings` ADD `balance_method` text;--> statement-breakpoint
ALTER TABLE `bookings` ADD `balance_paid_at` text;--> statement-breakpoint
ALTER TABLE `bookings` ADD `review_requested_at` text;--> statement-breakpoint
CREATE TABLE `review_opt_outs` (
	`company_id` integer NOT NULL,
	`phone` text NOT NULL,
	`created_at` text NOT NULL,
	PRIMARY KEY(`company_id`, `phone`),
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `documents` ADD `edition` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
DROP INDEX `documents_booking_kind`;--> statement-breakpoint
CREATE UNIQUE INDEX `documents_booking_kind` ON `documents` (`booking_id`,`kind`,`edition`) WHERE `kind` != 'credit_note';
