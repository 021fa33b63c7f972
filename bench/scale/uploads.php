<?php
/**
 * The index data of a fetcher upload as FetchController stores it for the
 * queue server, what bench/scale's batches hold: Yioop's web encoding
 * (base64 with "." "~" "_" for "+" "=" "/") of the sites' length, then
 * each site as its length and its gzcompress'd serialized array.
 */
declare(strict_types=1);

/** The serialized sites of $upload; fails on anything else. */
function uploadSites(string $upload): array
{
    return array_map(function (string $compressed): string {
        $site = gzuncompress($compressed);
        if ($site === false) {
            throw new SetUpFailure("a site of the upload does not inflate");
        }
        return $site;
    }, compressedUploadSites($upload));
}

/** The sites of $upload as it holds them, gzcompress'd; fails on anything else. */
function compressedUploadSites(string $upload): array
{
    $bytes = (string)base64_decode(strtr($upload, "._~", "+/="), true);
    if (strlen($bytes) < 4 || strlen($bytes) != 4 + unpack("N", $bytes)[1]) {
        throw new SetUpFailure("not an upload of sites only");
    }
    $sites = [];
    for ($at = 4; $at < strlen($bytes); $at += 4 + $size) {
        $size = unpack("N", $bytes, $at)[1];
        $sites[] = substr($bytes, $at + 4, $size);
    }
    return $sites;
}

/** The upload holding $sites (serialized), as uploadSites reads it. */
function uploadOf(array $sites): string
{
    $packed = "";
    foreach ($sites as $site) {
        $compressed = gzcompress($site);
        $packed .= pack("N", strlen($compressed)) . $compressed;
    }
    return strtr(base64_encode(pack("N", strlen($packed)) . $packed), "+/=", "._~");
}
