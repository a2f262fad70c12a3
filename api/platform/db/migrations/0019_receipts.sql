ALTER TABLE `companies` ADD `vat_number` text;--> statement-breakpoint
ALTER TABLE `companies` ADD `business_address` text;--> statement-breakpoint
CREATE TABLE `document_sequences` (
	`company_id` integer PRIMARY KEY NOT NULL,
	`last_number` integer NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `documents` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`company_id` integer NOT NULL,
	`booking_id` integer,
	`kind` text NOT NULL,
	`number` integer NOT NULL,
	`original_id` integer,
	`issued_at` text NOT NULL,
	`total_pence` integer NOT NULL,
	`lines` text NOT NULL,
	`totals` text NOT NULL,
	`details` text NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`booking_id`) REFERENCES `bookings`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`original_id`) REFERENCES `documents`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `documents_company_number` ON `documents` (`company_id`,`number`);--> statement-breakpoint
CREATE UNIQUE INDEX `documents_booking_kind` ON `documents` (`booking_id`,`kind`) WHERE `kind` != 'credit_note';--> statement-breakpoint
CREATE INDEX `documents_booking` ON `documents` (`booking_id`);--> statement-breakpoint
CREATE TRIGGER `documents_never_edited` BEFORE UPDATE OF `company_id`, `kind`, `number`, `original_id`, `issued_at`, `total_pence`, `lines`, `totals`, `details` ON `documents`
BEGIN
	SELECT RAISE(ABORT, 'an issued document is never edited');
END;
