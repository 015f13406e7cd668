//! Who listens on a local TCP port: the demo picks a free port, lets it go and starts DynamoDB
//! Local on it, and in the second or two before the JVM binds it another program may take it.
//! Something answering on the port is then not proof that the demo's own JVM is up.

/// The listener on a port, as far as this machine tells.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PortHolder {
    /// A socket of the given process listens on it.
    Process,
    /// Something listens on it, and not the given process.
    Another,
    /// Nothing listens on it.
    Nobody,
    /// This system does not say (not Linux, or `/proc` unreadable).
    Unknown,
}

/// Who listens on TCP `port` of any local address, IPv4 or IPv6, relative to process `pid`.
pub fn who_listens(pid: u32, port: u16) -> PortHolder {
    #[cfg(target_os = "linux")]
    {
        linux::who_listens(pid, port)
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = (pid, port);
        PortHolder::Unknown
    }
}

#[cfg(target_os = "linux")]
mod linux {
    use super::PortHolder;

    /// `st` of a listening socket in `/proc/net/tcp`.
    const LISTEN: &str = "0A";

    pub fn who_listens(pid: u32, port: u16) -> PortHolder {
        let Some(listeners) = listening_inodes(port) else {
            return PortHolder::Unknown;
        };
        if listeners.is_empty() {
            return PortHolder::Nobody;
        }
        let Ok(fds) = std::fs::read_dir(format!("/proc/{pid}/fd")) else {
            // The process has exited (or is not ours to read): the listener is someone else's.
            return PortHolder::Another;
        };
        // What a listener's fd links to; made once, not for every fd of a JVM's hundreds.
        let links: Vec<String> = listeners
            .iter()
            .map(|inode| format!("socket:[{inode}]"))
            .collect();
        let owns = fds.flatten().any(|fd| {
            std::fs::read_link(fd.path())
                .is_ok_and(|target| links.iter().any(|link| target.as_os_str() == link.as_str()))
        });
        if owns {
            PortHolder::Process
        } else {
            PortHolder::Another
        }
    }

    /// The inodes of the sockets listening on `port`, from the kernel's TCP tables; None when
    /// neither table can be read.
    fn listening_inodes(port: u16) -> Option<Vec<u64>> {
        let tables: Vec<String> = ["/proc/net/tcp", "/proc/net/tcp6"]
            .iter()
            .filter_map(|path| std::fs::read_to_string(path).ok())
            .collect();
        if tables.is_empty() {
            return None;
        }
        Some(
            tables
                .iter()
                .flat_map(|table| table.lines().skip(1))
                .filter_map(|line| listening_inode(line, port))
                .collect(),
        )
    }

    /// A table line's inode, if it is a listener on `port`. The line's fields: `sl`,
    /// `local_address` (hex address `:` hex port), `rem_address`, `st`, `tx_queue:rx_queue`,
    /// `tr:tm->when`, `retrnsmt`, `uid`, `timeout`, `inode`, …
    pub(super) fn listening_inode(line: &str, port: u16) -> Option<u64> {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let (_, local_port) = fields.get(1)?.rsplit_once(':')?;
        (fields.get(3) == Some(&LISTEN) && u16::from_str_radix(local_port, 16).ok()? == port)
            .then(|| fields.get(9)?.parse().ok())
            .flatten()
    }
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;
    use std::net::TcpListener;

    #[test]
    fn a_table_line_gives_the_listeners_inode_on_its_port_only() {
        let listen = "   1: 0100007F:1F40 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 4242 1 0000000000000000 100 0 0 10 0";
        let connected = "   2: 0100007F:1F40 0100007F:D2C4 01 00000000:00000000 00:00000000 00000000  1000        0 4343 1 0000000000000000 20 4 30 10 -1";
        assert_eq!(linux::listening_inode(listen, 8000), Some(4242));
        assert_eq!(linux::listening_inode(listen, 8001), None);
        assert_eq!(linux::listening_inode(connected, 8000), None);
        assert_eq!(linux::listening_inode("garbage", 8000), None);
    }

    #[test]
    fn this_process_holds_its_own_listener_and_not_a_closed_one() {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        assert_eq!(who_listens(std::process::id(), port), PortHolder::Process);
        // PID 1 is never this test: the same listener is someone else's to it.
        assert_eq!(who_listens(1, port), PortHolder::Another);
        drop(listener);
        assert_eq!(who_listens(std::process::id(), port), PortHolder::Nobody);
    }
}
