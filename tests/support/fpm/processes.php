<?php
// Servers the tests start as their own processes and stop by pid, never by
// name: tests/fpm.php and tests/tools/yioop/stock-web.php.

declare(strict_types=1);

/**
 * [user, group] that php-fpm's (and nginx's) workers run as: www-data when
 * we are root, as an operator's are; else ourselves. Null if there is none.
 */
function unprivilegedUser(): ?array
{
    if (posix_geteuid() !== 0) {
        $me = posix_getpwuid(posix_geteuid());
        return [$me['name'], posix_getgrgid($me['gid'])['name']];
    }
    foreach (['www-data', 'nobody'] as $name) {
        $user = posix_getpwnam($name);
        if ($user !== false) {
            return [$name, posix_getgrgid($user['gid'])['name']];
        }
    }
    return null;
}

/** SIGTERM to the process we started, SIGKILL if it is still there after 10 s. */
function stopProcess($process, int $pid): void
{
    if (proc_get_status($process)['running']) {
        posix_kill($pid, SIGTERM);
        for ($i = 0; $i < 100 && proc_get_status($process)['running']; $i++) {
            usleep(100_000);
        }
        if (proc_get_status($process)['running']) {
            posix_kill($pid, SIGKILL);
        }
    }
    proc_close($process);
}
