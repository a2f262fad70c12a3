ALTER TABLE `companies` ADD `privacy_text` text;
