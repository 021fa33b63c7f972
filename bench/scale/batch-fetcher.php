<?php
/** bench/scale/fetch.php's Fetcher: Yioop's, less the network. */
namespace seekquarry\yioop\executables;

/** Yioop's Fetcher, its upload written to a file instead of posted to the queue server. */
class BatchFetcher extends Fetcher
{
    public int $written = 0;

    public function __construct(private string $out_dir)
    {
        parent::__construct();
        @mkdir($out_dir, 0777, true);
    }

    /** What FetchController stores for the queue server: the index part of the data. */
    public function uploadCrawlData($queue_server, $byte_counts, &$post_data)
    {
        $index = substr($post_data["data"], $byte_counts["TOTAL"] - $byte_counts["INDEX"]);
        if ($byte_counts["INDEX"] > 0) {
            file_put_contents(sprintf("%s/batch%05d.txt", $this->out_dir, $this->written++),
                $index);
        }
    }
}
