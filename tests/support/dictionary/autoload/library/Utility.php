<?php
/** Stand-in for Yioop's Utility.php: one of its functions, to see it loaded. */
namespace seekquarry\yioop\library;

function yioopCodecUtilityStandIn(): bool
{
    return true;
}
