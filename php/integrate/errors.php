<?php
/** The two ways the integration tool stops short. */

declare(strict_types=1);

namespace YioopCodec\Integrate;

use RuntimeException;

/** A tree or file this tool will not touch; the message says why. */
final class Refusal extends RuntimeException
{
}

/** A file system operation that failed. */
final class IoError extends RuntimeException
{
}
