ALTER TABLE `quotes` ADD `registration` text;--> statement-breakpoint
CREATE TABLE `vehicle_rules` (
	`company_id` integer PRIMARY KEY NOT NULL,
	`rules` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade
);
