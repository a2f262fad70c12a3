CREATE TABLE `job_file_promises` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`booking_id` integer NOT NULL,
	`company_id` integer NOT NULL,
	`client_id` text NOT NULL,
	`stage` text NOT NULL,
	`slot` text NOT NULL,
	`promised_at` text NOT NULL,
	FOREIGN KEY (`booking_id`) REFERENCES `bookings`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `job_file_promises_client` ON `job_file_promises` (`booking_id`,`client_id`);--> statement-breakpoint
CREATE TABLE `job_reports` (
	`booking_id` integer PRIMARY KEY NOT NULL,
	`company_id` integer NOT NULL,
	`store_key` text NOT NULL,
	`size` integer NOT NULL,
	`sha256` text NOT NULL,
	`contents` text NOT NULL,
	`issued_at` text NOT NULL,
	FOREIGN KEY (`booking_id`) REFERENCES `bookings`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TRIGGER `job_reports_blob_deleted` AFTER DELETE ON `job_reports` BEGIN
	INSERT OR IGNORE INTO `blob_deletions` (`key`, `queued_at`) VALUES (old.`store_key`, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));
END;
