ALTER TABLE `companies` ADD `booking_origins` text DEFAULT '[]' NOT NULL;
